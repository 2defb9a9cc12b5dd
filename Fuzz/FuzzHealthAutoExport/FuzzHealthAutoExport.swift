import Foundation
import FuzzSupport
import HealthAutoExport

/// libFuzzer target: a Health Auto Export JSON body.
@_cdecl("FuzzHealthAutoExport_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv) { data in
        _ = try? HAEReader.read(data)
    }
}
