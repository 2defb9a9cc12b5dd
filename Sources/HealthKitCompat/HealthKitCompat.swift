// The only Apple-specific line of the module: where HealthKit exists, `HealthKitCompat`
// *is* HealthKit and adds nothing. Every other file of the module is compiled only where
// HealthKit does not exist (Linux), and provides HealthKit's API over our store there
// (docs/healthkit-compat.md).
#if canImport(HealthKit)
    @_exported import HealthKit
#else
    @_exported import Foundation
#endif
