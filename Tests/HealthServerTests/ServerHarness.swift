import Foundation
import HealthMetrics
import HealthServer
import Hummingbird
import HummingbirdTesting

/// A server on a fresh SQLite store with three users: `alice` and `bob` (read, write) and
/// `reader` (read only).
struct ServerHarness {
    let store: SQLiteServerStore
    let folder: URL
    let app: any ApplicationProtocol
    let tokens: [String: String]
    let ids: [String: String]

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try SQLiteServerStore(path: folder.appendingPathComponent("server.sqlite").path)
        var tokens: [String: String] = [:]
        var ids: [String: String] = [:]
        for (name, scopes) in [("alice", "read,write"), ("bob", "read,write"), ("reader", "read")] {
            let (user, token) = try await store.addUser(name: name, scopes: Scope.parse(scopes)!)
            tokens[name] = token.text
            ids[name] = user.id
        }
        self.tokens = tokens
        self.ids = ids
        var configuration = ServerConfiguration()
        configure(&configuration)
        app = buildApplication(
            configuration: configuration,
            repositories: .init(
                users: store, dailyMetrics: store, healthStores: SQLiteUserHealthStores(folder: folder.path),
                idempotency: store))
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder) }

    func headers(_ user: String?, json: Bool = true, idempotencyKey: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [:]
        if let user { fields[.authorization] = "Bearer \(tokens[user] ?? user)" }
        if json { fields[.contentType] = "application/json" }
        if let idempotencyKey { fields[.init("Idempotency-Key")!] = idempotencyKey }
        return fields
    }

    /// A day in `zone` with its true UTC bounds and the given values.
    static func day(
        _ date: String, zone: String = "Europe/Amsterdam", steps: Int? = 8000, sleep: Double? = 8, restingHR: Double? = 55,
        hrv: Double? = exp(4), energy: Double? = 500
    ) -> NormalizedDailyMetrics {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parts = date.split(separator: "-").map { Int($0)! }
        let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
        let end = calendar.date(byAdding: .day, value: 1, to: start)!
        return NormalizedDailyMetrics(
            localDate: date, timezoneIdentifier: zone, utcDayStart: start, utcDayEnd: end, stepsNormalized: steps,
            activeEnergyKcal: energy, sleepHours: sleep, restingHRBpm: restingHR, hrvMs: hrv, normalizationVersion: "norm_v1",
            createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    /// `YYYY-MM-DD` of `offset` days after 2024-06-01.
    static func date(_ offset: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.date(
            byAdding: .day, value: offset, to: calendar.date(from: DateComponents(year: 2024, month: 6, day: 1))!)!
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    static func body(_ days: [NormalizedDailyMetrics]) throws -> ByteBuffer {
        ByteBuffer(bytes: try NormalizedDailyMetrics.backendEncoder().encode(days))
    }

    static func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]) ?? [:]
    }
}
