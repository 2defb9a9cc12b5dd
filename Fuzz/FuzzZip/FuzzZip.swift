import Foundation
import FuzzSupport
import HealthImportReader

/// libFuzzer target: an export.zip held in memory, read as an import reads it.
@_cdecl("FuzzZip_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv) { data in
        _ = try? ParserEntryPoints.exportZip(data)
    }
}
