import Foundation
import HealthCore
import HealthPostgres
import HealthSQLite
import HealthTestSupport
import Testing

/// Issue 34 §2: a scan is an `AsyncSequence` of pages of 5,000 rows, read by keyset on
/// (start, anchor), the next while the reader takes one. 12,345 steps, seven to a start (so pages end inside a run of equal starts), come
/// back each once, in start-then-storage order, from SQLite and PostgreSQL alike, in pages
/// of 5,000, 5,000 and 2,345; a range scan starts and ends where asked.
@Suite struct I34ScanPagesTests {
    static let t0 = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00:00Z

    static func samples() -> [Sample] {
        (0..<12_345).map { index in
            let start = t0.addingTimeInterval(Double(index / 7) * 60)
            return Sample(
                type: .stepCount, start: start, end: start.addingTimeInterval(30), value: .quantity(Double(index), unit: "count"),
                source: Source(name: "Watch"))
        }
    }

    /// Every page of `store`'s scan of `interval`, as (start, value) pairs, and the page sizes.
    static func scan(_ store: any HealthQuerying, _ interval: DateInterval?) async throws -> ([Double], [Double], [Int]) {
        var (starts, values, sizes) = ([Double](), [Double](), [Int]())
        for try await page in store.samplePages(of: .stepCount, startingIn: interval) {
            sizes.append(page.count)
            starts += page.map(\.start)
            values += page.map { $0.value ?? -1 }
        }
        return (starts, values, sizes)
    }

    static func expectPages(_ store: any HealthQuerying) async throws {
        let all = Self.samples()
        let (starts, values, sizes) = try await Self.scan(store, nil)
        #expect(sizes == [5_000, 5_000, 2_345])
        #expect(values == all.map { $0.value.number! })
        #expect(starts == all.map(\.start.timeIntervalSince1970))
        // From the 700th minute up to (not including) the 1,500th: starts in the range only.
        let range = DateInterval(start: t0.addingTimeInterval(700 * 60), end: t0.addingTimeInterval(1_500 * 60))
        let (_, ranged, rangedSizes) = try await Self.scan(store, range)
        #expect(ranged == (700 * 7..<1_500 * 7).map(Double.init))
        #expect(rangedSizes == [5_000, 600])
        // Nothing of another type.
        var other = 0
        for try await page in store.samplePages(of: .heartRate, startingIn: nil) { other += page.count }
        #expect(other == 0)
    }

    @Test func i34_async_theInMemoryReferenceScansAsTheDatabases() async throws {
        try await Self.expectPages(InMemoryHealthStore(samples: Self.samples()))
    }

    @Test func i34_async_sqliteScansInPagesByKeyset() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("i34-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        let samples = Self.samples()
        try database.write { writer in for sample in samples { try writer.write(.sample(sample)) } }
        try await Self.expectPages(database.store)
    }

    @Test(.enabled(if: PostgresTestDatabase.url != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
    func i34_async_postgresScansInPagesByKeyset() async throws {
        let test = try await PostgresTestDatabase.make("scanpages")
        let store = test.database.store(for: UUID().uuidString.lowercased())
        try await store.write { writer in try await writer.write(Self.samples().map(HealthRecord.sample)) }
        try await Self.expectPages(store)
        await test.close()
    }
}
