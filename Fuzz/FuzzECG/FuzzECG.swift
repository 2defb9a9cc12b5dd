import Foundation
import FuzzSupport
import HealthImportReader

/// libFuzzer target: an ECG CSV file.
@_cdecl("FuzzECG_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv) { data in
        _ = try? ParserEntryPoints.electrocardiogram(data)
    }
}
