import Foundation
import Testing

/// Issue 36 §6: `healthpipe mcp bundle` writes a zip of the manifest and the binary, and
/// replaces only a regular file: never a FIFO, a device, a folder or a link (an attack on
/// the release build turned /dev/full into a file).
@Suite struct I36BundleCommandTests {
    @Test func i36_theBundleReplacesOnlyARegularFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("i36-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo.mcpb").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = folder.appendingPathComponent("link.mcpb").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        for target in [fifo, link, folder.path] {
            let refused = try I33LastDayTests.run(["mcp", "bundle", "--out", target])
            #expect(refused.status == 2 && refused.err.contains("is not a regular file"), "\(target): \(refused.err)")
        }
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
        #expect(try I33LastDayTests.run(["mcp", "bundle", "--out", "-"]).status == 64)
        // An older bundle is replaced, whole.
        let bundle = folder.appendingPathComponent("healthpipe.mcpb").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: bundle))
        let written = try I33LastDayTests.run(["mcp", "bundle", "--out", bundle])
        #expect(written.status == 0 && written.out.hasPrefix("Wrote \(bundle)"), "\(written.err)")
        let head = try #require(FileHandle(forReadingAtPath: bundle)).readData(ofLength: 4)
        #expect(head == Data([0x50, 0x4B, 0x03, 0x04]))  // a zip's local file header
        #expect((try FileManager.default.attributesOfItem(atPath: bundle)[.posixPermissions] as? Int) == 0o644)
    }
}
