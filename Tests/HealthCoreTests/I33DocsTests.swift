import Foundation
import Testing

/// Issue 33 §6: each doc stands alone — nothing in docs/ or the README points outside the
/// repository — and the README says how to install, how to get an export off an iPhone,
/// and that the local store and the server's stores are different.
@Suite struct I33DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func documents() throws -> [(name: String, text: String)] {
        let docs = root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        #expect(names.count >= 16)
        return try [("README.md", String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))]
            + names.map { ("docs/" + $0, try String(contentsOf: docs.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test func i33_edges_docsNeverPointOutsideTheRepository() throws {
        let outside = [
            "../", "ALGORITHMS.md", "FORMATS.md", "SYNC.md", "PRODUCT.md", "STYLE.md", "/work/", "shared/docs", "shared/seeds",
            "seed's", "seeds'", "Flo seed", "AirFit", "seed 002",
        ]
        for (name, text) in try Self.documents() {
            for words in outside { #expect(!text.contains(words), "\(name) cites \(words)") }
            // Every relative link reaches a file of the repository.
            let base = name == "README.md" ? Self.root : Self.root.appendingPathComponent("docs")
            let links = try Regex(#"\]\(([^)#:]+)(#[^)]*)?\)"#)
            for match in text.matches(of: links) {
                let target = String(match.output[1].substring ?? "")
                let path = base.appendingPathComponent(target).standardizedFileURL.path
                #expect(path.hasPrefix(Self.root.standardizedFileURL.path), "\(name) links outside: \(target)")
                #expect(FileManager.default.fileExists(atPath: path), "\(name) links to a missing \(target)")
            }
        }
    }

    @Test func i33_edges_theReadmeSaysHowToInstallAndWhereTheDataGoes() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        for words in [
            "## Install", "swift build -c release --product healthpipe", ".build/release/healthpipe", "PATH",
            "healthpipe --version", "Export All Health Data", "The local store and the server's stores are different stores",
            "one store per user",
        ] {
            #expect(readme.contains(words), "\(words)")
        }
    }
}
