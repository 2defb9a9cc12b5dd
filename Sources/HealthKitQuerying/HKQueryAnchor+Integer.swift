import Foundation
import HealthKitCompat

// Our anchors are integers (they are stored by the sync client); HealthKit's are opaque
// objects made from an integer by `HKQueryAnchor(fromValue:)`. The way back is the only
// platform-specific code of this module.
#if canImport(HealthKit)
    extension HKQueryAnchor {
        /// The integer HealthKit archives inside the anchor. NOT VERIFIED: no Apple platform is
        /// available to this project (docs/healthkit-compat.md §What cannot be verified).
        var integerValue: Int {
            guard let data = try? NSKeyedArchiver.archivedData(withRootObject: self, requiringSecureCoding: true),
                let coder = try? NSKeyedUnarchiver(forReadingFrom: data)
            else { return 0 }
            coder.requiresSecureCoding = false
            return Int(coder.decodeInt64(forKey: "HKQueryAnchorValue"))
        }
    }
#endif
