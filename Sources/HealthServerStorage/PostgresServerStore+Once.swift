import Crypto
import Foundation
import HealthServerRecords
import PostgresNIO

/// An `Idempotency-Key`'s look-ups and slot in one round trip before the work and one after
/// (issue 37 §2): `healthpipe_begin_once` (migration `server-v10`), then the answer kept and
/// the slot given back in one statement.
extension PostgresServerStore: OnceInOneStatement {
    public func beginOnce(slot: String, userID: String, key: String, since: Date) async throws -> OnceStart {
        let now = Date().timeIntervalSince1970
        let rows = try await client.query(
            """
            SELECT * FROM healthpipe_begin_once(\(Self.slotHash(slot)), \(now), \(now - Self.staleSlot), \(userID), \(key),
                \(since.timeIntervalSince1970))
            """, logger: logger)
        for try await (taken, hash, status, body) in rows.decode((Bool, Data?, Int?, Data?).self) {
            if let hash, let status, let body {
                return .remembered(RememberedResponse(requestHash: hash, status: status, body: body))
            }
            return taken ? .taken : .held
        }
        throw PostgresOnceError()
    }

    public func remember(
        userID: String, key: String, response: RememberedResponse, at: Date, ending slot: String
    ) async throws {
        try await client.query(
            try Self.remembering(userID: userID, key: key, response: response, at: at, freeing: Self.slotHash(slot)),
            logger: logger)
    }

    /// A slot's row key: the SHA-256 of its name.
    static func slotHash(_ slot: String) -> Data { Data(SHA256.hash(data: Data(slot.utf8))) }
}

/// `healthpipe_begin_once` answered no row (it always answers one).
struct PostgresOnceError: Error, CustomStringConvertible {
    var description: String { "the idempotency function answered no row" }
}
