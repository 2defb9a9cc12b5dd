import Foundation
import HealthCore
import HealthPostgres
import HealthSQLite
import HealthTestSupport
import Testing

/// Issue 33 §1: where the data ends, from the stores' indexes — the SQLite and PostgreSQL
/// stores answer ``HealthQuerying/sampleSpans()`` as the in-memory reference does, before
/// and after a deletion, and `storedSpan()` is their union.
@Suite struct I33SampleSpansTests {
    static let t0 = SQLiteStoreTests.t0

    /// The steps overlapping the last 30 hours of the samples: the steps' span ends earlier.
    static let tail = DateInterval(start: t0.addingTimeInterval(18 * 3600), duration: 30 * 3600)

    @Test func i33_lastday_theSQLiteStoreAnswersItsSpansAsTheReference() async throws {
        let (folder, database, reference) = try SQLiteStoreTests.stores()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = await reference.sampleSpans()
        #expect(expected.map(\.type) == [.sleepAnalysis, .heartRate, .stepCount])
        #expect(try await database.store.sampleSpans() == expected)
        #expect(try database.sampleSpans() == expected)
        #expect(try await database.store.storedSpan() == SampleTypeSpan.union(expected))
        _ = try await database.store.delete(.stepCount, overlapping: Self.tail, source: nil)
        _ = await reference.delete(.stepCount, overlapping: Self.tail, source: nil)
        let after = await reference.sampleSpans()
        #expect(after.last?.type == .stepCount && after.last!.last < Self.tail.start.addingTimeInterval(1))
        #expect(try await database.store.sampleSpans() == after)
        // An empty store has none.
        let empty = try Fixtures.database(in: folder, name: "empty.sqlite")
        #expect(try await empty.store.sampleSpans() == [])
        #expect(try await empty.store.storedSpan() == nil)
    }

    @Test(.enabled(if: PostgresTestDatabase.url != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
    func i33_lastday_thePostgresStoreAnswersItsSpansAsTheReference() async throws {
        let test = try await PostgresTestDatabase.make("spans")
        let (store, reference) = try await PostgresStoreTests.stores(test)
        let expected = await reference.sampleSpans()
        #expect(try await store.sampleSpans() == expected)
        #expect(try await store.storedSpan() == SampleTypeSpan.union(expected))
        _ = try await store.delete(.stepCount, overlapping: Self.tail, source: nil)
        _ = await reference.delete(.stepCount, overlapping: Self.tail, source: nil)
        #expect(try await store.sampleSpans() == (await reference.sampleSpans()))
        #expect(try await test.database.store(for: "nobody").sampleSpans() == [])
        await test.close()
    }
}
