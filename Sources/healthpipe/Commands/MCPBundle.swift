import ArgumentParser
import Foundation
import HealthBasics
import HealthMCP
import ZIPFoundation

/// `healthpipe mcp bundle`: the coach's MCP Bundle for a one-click install in a desktop
/// client (issue 36 §6; docs/mcp.md §One-click install).
struct MCPBundle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Write the coach's MCP Bundle (.mcpb): its manifest and this healthpipe binary, for a one-click install.",
        discussion: """
            A desktop client that installs .mcpb files (Claude Desktop among them) asks for the store file \
            and the home zone and starts `healthpipe mcp` over stdio. The bundle holds the binary for this \
            platform only. See docs/mcp.md.
            """)

    @Option(help: "Where to write the bundle.")
    var out = "healthpipe.mcpb"

    @Option(help: .hidden)
    var binary: String?

    func validate() throws {
        guard !out.isEmpty, out != "-" else {
            throw ValidationError("--out takes a file path (the bundle is a zip, not a stream)")
        }
    }

    func run() throws {
        // Only a new file or an older bundle is replaced: never a folder, a device, a FIFO or a link.
        if let type = try? FileManager.default.attributesOfItem(atPath: out)[.type] as? FileAttributeType,
            type != .typeRegular
        {
            printError("error: \(out) exists and is not a regular file; give --out a file path such as healthpipe.mcpb")
            throw ExitCode(2)
        }
        // The file itself, not a link to it (a link would be zipped as a link).
        let executable = URL(fileURLWithPath: binary ?? Self.runningBinary()).resolvingSymlinksInPath().path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            printError("error: \(executable) is not an executable file")
            throw ExitCode(2)
        }
        let target = URL(fileURLWithPath: out)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-mcpb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = folder.appendingPathComponent(CoachBundle.entryPoint)
        try FileManager.default.createDirectory(at: server.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: executable, toPath: server.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: server.path)
        try CoachBundle.manifest(version: HealthPipelineVersion.current, platform: Self.platform)
            .write(to: folder.appendingPathComponent("manifest.json"))
        // Written beside the target and moved into place: no half-written bundle is ever there.
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial")
        try? FileManager.default.removeItem(at: partial)
        do {
            let archive = try Archive(url: partial, accessMode: .create)
            for entry in ["manifest.json", CoachBundle.entryPoint] {
                try archive.addEntry(with: entry, relativeTo: folder, compressionMethod: .deflate)
            }
            // rename(2) replaces an older bundle in one step.
            guard rename(partial.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            printError("error: the bundle could not be written to \(target.path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value ?? 0
        print(
            String(
                format:
                    "Wrote %@ (%.1f MB): the manifest and healthpipe %@ for %@. Open it with a desktop client that installs .mcpb files.",
                target.path, Double(size) / 1e6, HealthPipelineVersion.current, Self.platform))
    }

    /// This process's own binary.
    static func runningBinary() -> String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// The manifest's name of this platform.
    static var platform: String {
        #if os(macOS)
            "darwin"
        #elseif os(Windows)
            "win32"
        #else
            "linux"
        #endif
    }
}
