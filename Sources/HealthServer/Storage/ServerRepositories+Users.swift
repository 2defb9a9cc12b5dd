import Foundation
import HealthCore
import HealthServerRecords
import HealthWire

/// Deleting a user against everything that writes their data (issue 32, H1 and H2): every
/// write of a user's data runs under the user's shared lock (``UserLocks``) after seeing
/// the user exist, and a deletion holds the lock alone. So a user's store is opened — and
/// created, for a new user — only for a live user, and no write outlives the deletion.
extension ServerRepositories {
    /// Runs `body` while no deletion of user `userID` runs, after seeing the user exist; a
    /// deleted user is the 401 of an unknown token. `body` must not call `withUser`,
    /// ``writing(_:_:)`` or ``readableStore(_:)`` of the same user again (see ``UserLocks``).
    public func withUser<T>(_ userID: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await userLocks.shared(userID) {
                guard try await users.userExists(id: userID) else { throw Problem.userGone }
                return try await body()
            }
        } catch is HealthStoreOwnerGone {
            // Deleted by another server or the CLI after the check (PostgreSQL refused the write).
            throw Problem.userGone
        }
    }

    /// Runs `body` with the store of user `userID` under ``withUser(_:_:)``: the only way
    /// the server opens a store to write (``UserHealthStores/store(for:)`` creates it).
    public func writing<T>(_ userID: String, _ body: (any UserHealthStore) async throws -> T) async throws -> T {
        try await withUser(userID) { try await body(try await healthStores.store(for: userID)) }
    }

    /// The store of user `userID` to read: opened under the lock, only for a live user.
    /// Reads made after a deletion has begun find the store empty or gone, never re-created.
    public func readableStore(_ userID: String) async throws -> any UserHealthStore {
        try await writing(userID) { $0 }
    }

    /// `error`, or the 401 of ``Problem/userGone`` when the user no longer exists: a write
    /// after the lock (a remembered answer whose foreign key names the user) that lost the
    /// race with the user's deletion is not a server error.
    func explaining(_ error: any Error, userID: String) async -> any Error {
        guard !(error is Problem), !(error is CancellationError) else { return error }
        guard let exists = try? await users.userExists(id: userID), !exists else { return error }
        return Problem.userGone
    }

    /// Deletes everything the server holds of `user`: their rows and token, then their
    /// health store (samples, files). Refused while an import of theirs is queued or running.
    ///
    /// Holds the user's lock alone: new writers of the user wait from the start, and the
    /// writers inside are waited for, so none writes after the deletion. The rows go first:
    /// from then on every write of the user is refused here, and on PostgreSQL in any server
    /// or CLI (the user's row is locked `FOR KEY SHARE` by every write). A store left by a
    /// deletion that failed after the rows is removed by `healthpipe serve` at start
    /// (``ServerMaintenance``) on SQLite; on PostgreSQL its removal is tried twice.
    public func deleteUser(_ user: User) async throws -> UserDeletionReport {
        try await refuseWhileImporting(user.id)
        await userLocks.beginExclusive(user.id)
        do {
            // An import runner holding the lock has an unfinished job: refused without
            // waiting for it; and a job recorded by a writer that has just left.
            try await refuseWhileImporting(user.id)
            await userLocks.awaitWritersGone(user.id)
            try await refuseWhileImporting(user.id)
            let rows: [String: Int]
            do {
                rows = try await users.deleteUser(id: user.id)
            } catch is ImportInProgressError {
                // Queued meanwhile by another server (PostgreSQL), seen in the deletion's transaction.
                throw Self.importInProgress
            }
            let store: (samples: Int, bytes: Int64)
            do {
                store = try await healthStores.deleteStore(for: user.id)
            } catch {
                store = try await healthStores.deleteStore(for: user.id)
            }
            await userLocks.unlockExclusive(user.id)
            return UserDeletionReport(
                user: user.name, id: user.id, rows: rows, samples: store.samples, healthStoreBytes: store.bytes)
        } catch {
            await userLocks.unlockExclusive(user.id)
            throw error
        }
    }

    private func refuseWhileImporting(_ userID: String) async throws {
        guard try await !imports.unfinishedImports().contains(where: { $0.userID == userID }) else {
            throw Self.importInProgress
        }
    }

    private static var importInProgress: Problem {
        Problem(.conflict, "Import in progress", detail: ImportInProgressError().description)
    }
}

extension ServerRepositories {
    /// The person's home zone (docs/api.md §Home zone): the zone of their days without
    /// `HKTimeZone`, UTC before any write named one.
    func homeZone(of userID: String) async throws -> TimeZone {
        Self.dayZone(named: try await users.homeZone(userID: userID))
    }

    /// A stored home zone's name as a zone: UTC for none.
    static func dayZone(named name: String?) -> TimeZone {
        name.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
    }
}
