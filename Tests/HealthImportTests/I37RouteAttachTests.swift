import Foundation
import GRDB
import HealthCore
import HealthImport
import HealthPostgres
import HealthTestSupport
import Testing

@testable import HealthSQLite

/// A user who imported `export.xml` alone (its GPX files not beside it) and later the whole
/// export: the workout was a duplicate and skipped whole, so its route never got its points,
/// though the summary said "routes: 1 GPX files, 3 points" (found by a probe with the dogsheep
/// fixture). The stored route now takes the points of the same route when they come.
@Suite struct I37RouteAttachTests {
    static let folder = Fixtures.path("dogsheep-healthkit-to-sqlite/zip_contents/apple_health_export")

    /// The stored route points, and each route's `points_loaded`.
    struct Rows: Equatable {
        var points: Int
        var loaded: [Int]
    }

    static func routeRows(_ database: HealthDatabase) async throws -> Rows {
        try await database.pool.read { db in
            Rows(
                points: try Int.fetchOne(db, sql: "SELECT count(*) FROM route_point") ?? -1,
                loaded: try Int.fetchAll(db, sql: "SELECT points_loaded FROM workout_route ORDER BY id"))
        }
    }

    @Test func aRouteStoredWithoutItsPointsTakesThemFromTheWholeExport() async throws {
        let scratch = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bare = scratch.appendingPathComponent("export.xml")
        try FileManager.default.copyItem(atPath: Self.folder + "/export.xml", toPath: bare.path)
        let database = try Fixtures.database(in: scratch)

        let first = try await Fixtures.importExport(bare.path, into: database)
        #expect(first.added[.workout] == 1)
        #expect(first.warnings["route file referenced but missing"] == 1, "\(first.warnings)")
        #expect(try await Self.routeRows(database) == Rows(points: 0, loaded: [0]))

        let whole = try await Fixtures.importExport(Self.folder, into: database)
        #expect(whole.routePoints == 3)
        #expect(whole.updated[.workout] == 1 && whole.duplicates[.workout] == nil, "\(whole.updated) \(whole.duplicates)")
        #expect(try await Self.routeRows(database) == Rows(points: 3, loaded: [1]))
        // What the dashboard, `export gpx` and MCP read.
        let routes = try await database.store.workoutRoutes(
            overlapping: DateInterval(start: .distantPast, end: .distantFuture), maxPoints: 100)
        #expect(routes.values.map(\.count) == [3])

        // Again, forced: a duplicate now, nothing attached twice.
        let again = try await Fixtures.importExport(Self.folder, into: database, force: true)
        #expect(again.duplicates[.workout] == 1 && again.updated[.workout] == nil)
        #expect(try await Self.routeRows(database) == Rows(points: 3, loaded: [1]))
    }

    /// Only a route without points at the same position and naming the same file takes them:
    /// a workout whose route was stored with its points is a plain duplicate.
    @Test func aRouteStoredWithItsPointsIsLeftAsItIs() async throws {
        let scratch = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let database = try Fixtures.database(in: scratch)
        try await Fixtures.importExport(Self.folder, into: database)
        #expect(try await Self.routeRows(database) == Rows(points: 3, loaded: [1]))
        let again = try await Fixtures.importExport(Self.folder, into: database, force: true)
        #expect(again.duplicates[.workout] == 1 && again.updated[.workout] == nil)
        #expect(try await Self.routeRows(database) == Rows(points: 3, loaded: [1]))
    }
}

/// The same in PostgreSQL, where a workout's routes are in its `details`.
@Suite(.enabled(if: PostgresTestDatabase.url != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct I37PostgresRouteAttachTests {
    @Test func aRouteStoredWithoutItsPointsTakesThemFromTheWholeExport() async throws {
        let test = try await PostgresTestDatabase.make("routes")
        let scratch = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bare = scratch.appendingPathComponent("export.xml")
        try FileManager.default.copyItem(atPath: I37RouteAttachTests.folder + "/export.xml", toPath: bare.path)
        let store = test.database.store(for: "attach")
        let everything = DateInterval(start: .distantPast, end: .distantFuture)

        let first = try await HealthImporter(store: store).run(path: bare.path)
        #expect(first.added[.workout] == 1)
        #expect(try await store.workoutRoutes(overlapping: everything, maxPoints: 100).isEmpty)

        let whole = try await HealthImporter(store: store).run(path: I37RouteAttachTests.folder)
        #expect(whole.updated[.workout] == 1 && whole.duplicates[.workout] == nil, "\(whole.updated) \(whole.duplicates)")
        #expect(try await store.workoutRoutes(overlapping: everything, maxPoints: 100).values.map(\.count) == [3])

        var options = HealthImporter.Options()
        options.force = true
        let again = try await HealthImporter(store: store, options: options).run(path: I37RouteAttachTests.folder)
        #expect(again.duplicates[.workout] == 1 && again.updated[.workout] == nil)
        #expect(try await store.workoutRoutes(overlapping: everything, maxPoints: 100).values.map(\.count) == [3])
        await test.close()
    }
}
