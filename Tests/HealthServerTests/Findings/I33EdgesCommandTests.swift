import Foundation
import HealthCore
import Testing

/// Issue 33 §6, the rough edges a newcomer hits on the command line.
@Suite struct I33EdgesCommandTests {
    /// `--version` prints the build's version; the daily metrics' rules moved to `--norm`,
    /// and the old spelling says where they went.
    @Test(.timeLimit(.minutes(3))) func i33_edges_versionAndNorm() throws {
        let version = try CommandLine33.run(["--version"])
        #expect(version.status == 0 && version.out == HealthPipelineVersion.current + "\n", "\(version.err)")

        let folder = try CommandLine33.temporaryFolder("norm")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try CommandLine33.store(
            importing: CommandLine33.fixture("apple-health/rinoshiyo-apple-health-mcp-server/sample_export.xml"), in: folder)
        let day = ["--from", "2024-06-15", "--to", "2024-06-15", "--format", "jsonl", "--db", db]
        let v2 = try CommandLine33.run(["days", "--norm", "norm_v2"] + day)
        #expect(v2.status == 0 && v2.out.contains(#""normalization_version":"norm_v2""#), "\(v2.err)")
        let former = try CommandLine33.run(["days", "--version", "norm_v2"] + day)
        #expect(former.status != 0 && former.out.isEmpty)
        #expect(former.err.contains("the daily metrics' rules are chosen with --norm norm_v2"), "\(former.err)")
    }
}
