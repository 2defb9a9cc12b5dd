import Foundation

/// Each user's samples: a SQLite file of their own (the same store the CLI imports into)
/// or their rows in the shared PostgreSQL database. A user's store reaches only their samples.
public protocol UserHealthStores: Sendable {
    /// The store of `userID`, created on first use. The server asks only through
    /// ``ServerRepositories/writing(_:_:)``: under the user's lock, for a user that exists.
    func store(for userID: String) async throws -> any UserHealthStore

    /// Deletes the store of `userID` entirely (nothing of it stays on disk); returns how
    /// many samples it held and the bytes of the files removed.
    func deleteStore(for userID: String) async throws -> (samples: Int, bytes: Int64)

    /// The users whose stores hold dirty spans: writes whose days were not computed before
    /// the server stopped (a crash, a kill, a shutdown with people still queued). A server
    /// queues them when it starts. No store is created for anyone.
    func usersWithDirtySpans() async throws -> [String]
}
