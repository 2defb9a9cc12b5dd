import Foundation
import HealthCore

/// A bare `export.xml`, or an unpacked export folder: the main XML on disk and the linked
/// files beside it.
final class FileExportSource: ExportSource {
    let kind: String
    let path: String
    let refusedEntries: [String] = []
    private let mainXML: URL
    private let root: URL
    /// `root` with its links resolved and a final `/`: what a linked file's resolved path
    /// must start with (`nil`: the folder cannot be resolved, and no linked file is read).
    private let resolvedRoot: String?

    /// A bare XML file.
    init(xml url: URL) throws {
        kind = "xml"
        path = url.path
        mainXML = url
        root = url.deletingLastPathComponent()
        resolvedRoot = FileExportSource.resolvedFolder(root)
        let head = try? FileExportSource.head(url)
        guard let head, MainXMLDetector.isHealthExport(head) else {
            throw ImportError(.notAnExport, file: url.path, FileExportSource.notAnExport(head: head))
        }
    }

    /// An unpacked export folder: the main XML is found by content, at the top or one level down.
    init(folder url: URL) throws {
        kind = "folder"
        path = url.path
        let manager = FileManager.default
        var candidates: [URL] = []
        // A folder given as a symbolic link is listed where it leads (listed as the link, it
        // held "no Apple Health export").
        let folder = url.resolvingSymlinksInPath()
        for level in [folder]
            + ((try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])) ?? [])
        {
            let files = (try? manager.contentsOfDirectory(at: level, includingPropertiesForKeys: nil)) ?? []
            candidates += files.filter { $0.pathExtension.lowercased() == "xml" }.sorted { $0.path < $1.path }
        }
        guard
            let found = candidates.first(where: { (try? FileExportSource.head($0)).map(MainXMLDetector.isHealthExport) == true })
        else {
            throw ImportError(.notAnExport, file: url.path, "holds no Apple Health export (no XML file starts with <HealthData)")
        }
        mainXML = found
        root = found.deletingLastPathComponent()
        resolvedRoot = FileExportSource.resolvedFolder(root)
    }

    /// Why a file is no export: Health Auto Export's JSON (`{"data": {"metrics": …}}`) is
    /// named, with where it goes in; anything else has no `<HealthData>`.
    static func notAnExport(head: Data?) -> String {
        let text = head.map { String(decoding: $0.prefix(4_096), as: UTF8.self) } ?? ""
        // Its empty body, `{"data": {}}`, too (read whole when the file is that small).
        let whole = head.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
        if whole?["data"] is [String: Any]
            || text.drop(while: \.isWhitespace).first == "{" && text.contains("\"data\"")
                && (text.contains("\"metrics\"") || text.contains("\"workouts\""))
        {
            return "is Health Auto Export JSON, not an Apple Health export: send it to the server's "
                + "POST /v1/health-auto-export (healthpipe serve; docs/api.md)"
        }
        return "is not an Apple Health export (no <HealthData> in its first 64 KiB)"
    }

    private static func head(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.read(upToCount: MainXMLDetector.peekSize) ?? Data()
    }

    var mainXMLName: String { mainXML.path }

    var mainXMLSize: Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: mainXML.path)[.size]) as? NSNumber)?.int64Value ?? 0
    }

    /// Reads the XML with `read(2)` in 1 MiB chunks into one reused buffer (`FileHandle`
    /// reads 4 KiB at a time and allocates a new `Data` per chunk).
    func streamMainXML(_ consume: (Data) throws -> Void) throws {
        try FileExportSource.readChunks(mainXML.path, capacity: 1 << 20, consume)
    }

    /// `regularOnly`: a linked file, checked again on the open descriptor — a file swapped
    /// for a FIFO or a link after ``linkedFile(_:isRoute:)`` looked at it is refused, never
    /// read (nor waited for).
    private static func readChunks(
        _ path: String, capacity: Int, regularOnly: Bool = false, _ consume: (Data) throws -> Void
    ) throws {
        let descriptor = open(path, regularOnly ? O_RDONLY | O_NONBLOCK | O_NOFOLLOW : O_RDONLY)
        guard descriptor >= 0 else {
            if regularOnly, errno == ELOOP { throw LinkedFileRefused.outsideExport }
            throw ImportError(.unreadable, file: path, "cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        if regularOnly, fstat(descriptor, &status) != 0 || status.st_mode & S_IFMT != S_IFREG {
            throw LinkedFileRefused.notARegularFile
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            let count = read(descriptor, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportError(.unreadable, file: path, "read failed at byte \(offset): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            offset += Int64(count)
            try consume(Data(bytesNoCopy: buffer, count: count, deallocator: .none))
        }
    }

    func streamFile(exportPath: String, isRoute: Bool, _ consume: (Data) throws -> Void) throws -> Bool {
        let relative = exportPath.hasPrefix("/") ? String(exportPath.dropFirst()) : exportPath
        guard !MainXMLDetector.isUnsafe(relative) else { return false }
        // Where the export says, else beside the main XML. A folder (an empty path names the
        // export's own) is no file: missing, as in a zip.
        let candidates = [relative, (relative as NSString).lastPathComponent].map { root.appendingPathComponent($0) }
        for candidate in candidates {
            guard let file = try linkedFile(candidate, isRoute: isRoute) else { continue }
            try FileExportSource.readChunks(file, capacity: linkedFileChunk, regularOnly: true, consume)
            return true
        }
        return false
    }

    /// The export's own folders, where the files its XML links to are.
    static let linkedFolders = ["clinical-records", "electrocardiograms", "workout-routes"]

    /// The file at `url`, its symbolic links resolved; `nil` when there is none (or only a
    /// folder, or a dangling link). Refused (``LinkedFileRefused``) when it is not a regular
    /// file — a FIFO would block the import, a device never end — or lies outside the
    /// export's own folders (``linkedFolders``, the folder itself as resolved: a link out of
    /// it, or a path that reaches the user's other files beside a bare `export.xml`). For a
    /// route (`isRoute`), a GPX file beside the main XML is read too: only its points are kept.
    private func linkedFile(_ url: URL, isRoute: Bool) throws -> String? {
        guard let file = Self.realPath(url.path), let base = resolvedRoot else { return nil }
        var status = stat()
        guard stat(file, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG else { throw LinkedFileRefused.notARegularFile }
        let inOwnFolder = Self.linkedFolders.contains { file.hasPrefix(base + $0 + "/") }
        let routeBeside =
            isRoute && file.hasPrefix(base) && !file.dropFirst(base.count).contains("/") && file.lowercased().hasSuffix(".gpx")
        guard inOwnFolder || routeBeside else { throw LinkedFileRefused.outsideExport }
        return file
    }

    private static func resolvedFolder(_ folder: URL) -> String? {
        realPath(folder.path).map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    private static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    func electrocardiogramPaths() -> [String] {
        let folder = root.appendingPathComponent("electrocardiograms")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.lowercased().hasSuffix(".csv") }.sorted().map { "electrocardiograms/" + $0 }
    }

    /// The files an import of this source reads, by path relative to the export's folder:
    /// the main XML first, then those of the export's own folders, sorted — only those an
    /// import may read (``linkedFile(_:isRoute:)``): a link out of the folder, a FIFO or a dangling
    /// link is neither opened nor part of the export's identity.
    private func contentFiles() -> [(name: String, url: URL)] {
        var files = [(name: mainXML.lastPathComponent, url: mainXML)]
        for folder in Self.linkedFolders {
            let directory = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.filter({ !MainXMLDetector.isJunk($0) }).sorted() {
                let url = directory.appendingPathComponent(name)
                guard let file = try? linkedFile(url, isRoute: false) else { continue }
                files.append((folder + "/" + name, URL(fileURLWithPath: file)))
            }
        }
        return files
    }

    func identity() throws -> SourceIdentity {
        var builder = ContentKeyBuilder(tag: "files")
        var newest = Date.distantPast
        for file in contentFiles() {
            var status = stat()
            guard stat(file.url.path, &status) == 0 else {
                throw ImportError(.unreadable, file: file.url.path, "cannot be read: \(String(cString: strerror(errno)))")
            }
            builder.add(file.name)
            builder.add(Int64(status.st_size))
            builder.add(Int64(status.st_mtim.tv_sec))
            builder.add(Int64(status.st_mtim.tv_nsec))
            let modified = Date(
                timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
            newest = max(newest, modified)
        }
        return SourceIdentity(quickKey: kind + ":" + builder.finish().description, newestModification: newest)
    }

    let hashesMainXML = true

    func contentHash(mainXML: ContentKey?) throws -> String {
        var builder = ContentKeyBuilder(tag: "content")
        for (index, file) in contentFiles().enumerated() {
            builder.add(file.name)
            if index == 0, let mainXML {
                builder.add(mainXML)
                continue
            }
            var hasher = StreamingContentHash()
            do {
                // The linked files by their resolved paths; the main XML as the user named it.
                try FileExportSource.readChunks(file.url.path, capacity: 1 << 20, regularOnly: index > 0) {
                    hasher.update($0)
                }
            } catch is LinkedFileRefused {
                throw ImportError(.unreadable, file: file.url.path, "changed while the export was read")
            }
            builder.add(hasher.finish())
        }
        return "content:" + builder.finish().description
    }
}
