import Foundation
import FuzzSupport
import HealthImportReader

/// libFuzzer target: a GPX route file.
@_cdecl("FuzzGPX_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv) { data in
        _ = try? ParserEntryPoints.gpx(data)
    }
}
