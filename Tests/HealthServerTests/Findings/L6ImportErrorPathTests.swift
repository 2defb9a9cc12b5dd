import Foundation
import HealthImportReader
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Finding L6 (issue 32): an import's error message showed the server's folders. Only an
/// ``ImportError``'s words reach the person, the upload's path replaced; any other error (a
/// file system or database error) is a plain sentence.
@Suite struct L6ImportErrorPathTests {
    static let upload = "/srv/healthpipe/data/uploads/5F0E2C8A.zip"

    @Test func l6_importErrorsNameTheUploadNotTheServersFolders() {
        let error = ImportError(.damagedEntry, file: Self.upload + ": apple_health_export/export.xml", "is truncated")
        #expect(
            ImportRunner.reason(error, file: Self.upload) == "the upload: apple_health_export/export.xml: is truncated")
    }

    /// Found by a probe (issue 37): with a relative --server-db the upload's path was relative
    /// and the error named it absolute: "/tmp/probe62/the upload: is not an Apple Health export".
    @Test func i37_aRelativeUploadPathIsNotSaidAbsolute() {
        let relative = "xdg/healthpipe/uploads/5F0E2C8A.zip"
        let absolute = FileManager.default.currentDirectoryPath + "/" + relative
        let error = ImportError(.notAnExport, file: absolute, "is not an Apple Health export")
        let reason = ImportRunner.reason(error, file: relative)
        #expect(reason == "the upload: is not an Apple Health export", "\(reason)")
    }

    @Test func l6_otherErrorsNeverShowAPath() {
        let errors: [any Error] = [
            CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: "/srv/healthpipe/data/users/abc.sqlite"]),
            POSIXError(.ENOSPC),
        ]
        for error in errors {
            let reason = ImportRunner.reason(error, file: Self.upload)
            #expect(!reason.contains("/srv") && !reason.contains("healthpipe/data"))
            #expect(reason == "the upload could not be imported because of a problem on the server; try again")
        }
    }
}
