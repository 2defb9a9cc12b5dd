import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 33 §6, JSON: one casing (snake case) in `sleep --format json`, `/v1/sleep` and
/// `stats --json`; means rounded to what they mean; no `[\n\n]` for an empty list.
@Suite struct I33JSONTests {
    /// Every key of `value`, at any depth.
    static func keys(_ value: Any) -> Set<String> {
        if let object = value as? [String: Any] {
            return Set(object.keys).union(object.values.flatMap(keys))
        }
        if let array = value as? [Any] { return Set(array.flatMap(keys)) }
        return []
    }

    static func isSnakeCase(_ key: String) -> Bool {
        !key.isEmpty
            && key.unicodeScalars.allSatisfy { (0x61...0x7A).contains($0.value) || (0x30...0x39).contains($0.value) || $0 == "_" }
    }

    @Test(arguments: ServerBackend.enabled) func i33_edges_sleepAnswersInSnakeCase(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client)
            let nights = try await client.execute(
                uri: "/v1/sleep?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { try JSONSerialization.jsonObject(with: Data($0.body.readableBytesView)) }
            let keys = Self.keys(nights)
            #expect(keys.isSuperset(of: ["local_date", "main", "in_bed_seconds", "asleep_seconds", "stage_seconds", "naps"]))
            #expect(keys.filter { !Self.isSnakeCase($0) }.isEmpty, "\(keys.sorted())")
        }
    }

    /// The CLI on a night in Los Angeles and three HRV readings of 40.1, 40.2 and 40.4 ms.
    @Test(.timeLimit(.minutes(3))) func i33_edges_theCommandsPrintOneCasingAndRoundedNumbers() throws {
        let folder = try CommandLine33.temporaryFolder("json")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let hrv = [("08", "40.1"), ("09", "40.2"), ("10", "40.4")].map { hour, value in
            """
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" unit="ms" value="\(value)" startDate="2024-12-30 \(hour):00:00 -0800" endDate="2024-12-30 \(hour):00:00 -0800"/>
            """
        }
        let db = try CommandLine33.store(
            importing: try CommandLine33.export(I33ZonesCommandTests.records + "\n" + hrv.joined(separator: "\n"), in: folder),
            in: folder)
        let day = ["--from", "2024-12-30", "--to", "2024-12-30", "--db", db]

        let sleep = try CommandLine33.run(["sleep", "--format", "json"] + day)
        #expect(sleep.status == 0, "\(sleep.err)")
        let nights = try JSONSerialization.jsonObject(with: Data(sleep.out.utf8))
        #expect(Self.keys(nights).filter { !Self.isSnakeCase($0) }.isEmpty, "\(Self.keys(nights).sorted())")
        // No naps: an empty list, printed as one.
        #expect(sleep.out.contains(#""naps" : []"#), "\(sleep.out)")
        #expect(sleep.out.range(of: #"\[\s+\]"#, options: .regularExpression) == nil, "\(sleep.out)")

        let stats = try CommandLine33.run(["stats", "--json", "--db", db])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["days_by_kind", "samples_by_type", "tables"])

        let days = try CommandLine33.run(["days", "--format", "json"] + day)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(days.out.utf8)) as? [[String: Any]])
        #expect(rows.first?["hrv_ms"] as? Double == 40.233, "\(days.out)")
        #expect(days.out.contains(#""hrv_ms" : 40.233,"#), "\(days.out)")
    }
}
