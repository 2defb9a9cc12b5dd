import Foundation
import FuzzSupport
import HealthImportReader

/// libFuzzer target: an export.xml, fed in chunks whose size the input's length picks.
@_cdecl("FuzzExportXML_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv) { data in
        // Chunks of 1…251 bytes: every tag, attribute and entity straddles a chunk edge somewhere.
        _ = try? ParserEntryPoints.exportXML(data, chunkSize: data.count % 251 + 1)
    }
}
