import Foundation
import GRDB
import HealthCore

/// A device's sync state in its own SQLite file (`sync.sqlite`, mode 0600, in the state
/// folder): the enrolment, per type the anchors and the backfill, the outbox of sealed
/// batches and the dead letters. Every change that reads data into a batch writes the
/// batch and the anchor it advances to in one transaction (docs/sync.md §Outbox).
public final class SyncState: Sendable {
    public let folder: String
    let queue: DatabaseQueue

    /// Opens (creating, with mode 0700 for the folder and 0600 for the file) the state in
    /// `folder`.
    public init(folder: String) throws {
        self.folder = folder
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let path = (folder as NSString).appendingPathComponent("sync.sqlite")
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(queue)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.state("cannot open the sync state in \(folder): \(error)"))
        }
    }

    /// The default state folder: `$XDG_STATE_HOME/healthpipe/sync`, else
    /// `~/.local/state/healthpipe/sync`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".local/state")
        return ((base as NSString).appendingPathComponent("healthpipe") as NSString).appendingPathComponent("sync")
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("sync-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE enrolment (
                        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                        server TEXT NOT NULL, user_id TEXT NOT NULL, device_id TEXT NOT NULL, device_name TEXT NOT NULL,
                        enrolled_at REAL NOT NULL, next_sequence INTEGER NOT NULL DEFAULT 1
                    );
                    CREATE TABLE type_state (
                        type TEXT PRIMARY KEY,
                        proposed INTEGER NOT NULL,
                        saved INTEGER NOT NULL,
                        last_success_at REAL,
                        backfill_cursor REAL,
                        backfill_floor REAL,
                        backfill_done INTEGER NOT NULL DEFAULT 0,
                        backfill_items INTEGER NOT NULL DEFAULT 0
                    ) WITHOUT ROWID;
                    CREATE TABLE outbox (
                        sequence INTEGER PRIMARY KEY,
                        batch_id TEXT NOT NULL UNIQUE,
                        envelope BLOB NOT NULL,
                        items INTEGER NOT NULL,
                        additions INTEGER NOT NULL,
                        deletions INTEGER NOT NULL,
                        type TEXT NOT NULL,
                        anchor INTEGER,
                        created_at REAL NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT
                    );
                    CREATE TABLE dead_letter (
                        sequence INTEGER PRIMARY KEY,
                        batch_id TEXT NOT NULL,
                        envelope BLOB NOT NULL,
                        items INTEGER NOT NULL,
                        type TEXT NOT NULL,
                        anchor INTEGER,
                        status INTEGER NOT NULL,
                        reason TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        dead_at REAL NOT NULL
                    );
                    CREATE TABLE totals (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("sync-v2") { db in
            // The instant each type's history window counts back from (issue 33), so that a
            // wider --backfill-days later reads only the newly covered history. A state from
            // before keeps its window (backfill_floor); its reference is measured at the next read.
            try db.execute(sql: "ALTER TABLE type_state ADD COLUMN backfill_reference REAL")
        }
        return migrator
    }
}

/// Who this device is to the server.
public struct Enrolment: Codable, Sendable, Hashable {
    public var server: String
    public var userID: String
    public var deviceID: String
    public var deviceName: String
    public var enrolledAt: Date

    public init(server: String, userID: String, deviceID: String, deviceName: String, enrolledAt: Date) {
        self.server = server
        self.userID = userID
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.enrolledAt = enrolledAt
    }
}

extension SyncState {
    /// The enrolment, or `nil` before `healthpipe devices enrol`.
    public func enrolment() throws -> Enrolment? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT server, user_id, device_id, device_name, enrolled_at FROM enrolment").map {
                Enrolment(
                    server: $0[0], userID: $0[1], deviceID: $0[2], deviceName: $0[3],
                    enrolledAt: Date(timeIntervalSince1970: $0[4]))
            }
        }
    }

    /// The enrolment, or ``SyncError/Kind/notEnrolled(_:)``.
    public func requireEnrolment() throws -> Enrolment {
        guard let enrolment = try enrolment() else { throw SyncError(.notEnrolled("no device in \(folder)")) }
        return enrolment
    }

    /// Records a new enrolment and its credentials. A folder that holds one already is
    /// refused: its queue belongs to that device.
    public func enrol(_ enrolment: Enrolment, credentials: Credentials) throws {
        try refuseIfEnrolled()
        try credentials.write(folder: folder)
        try queue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO enrolment (singleton, server, user_id, device_id, device_name, enrolled_at) VALUES (1,?,?,?,?,?)",
                arguments: [
                    enrolment.server, enrolment.userID, enrolment.deviceID, enrolment.deviceName,
                    enrolment.enrolledAt.timeIntervalSince1970,
                ])
        }
    }

    /// Throws when the folder holds an enrolment already: its queue belongs to that device.
    public func refuseIfEnrolled() throws {
        guard let existing = try enrolment() else { return }
        throw SyncError(
            .state(
                "\(folder) is enrolled already as device \(existing.deviceID) on \(existing.server); "
                    + "use another --state folder, or remove this one to start over"))
    }

    /// The credentials (token, keys) of the enrolment.
    public func credentials() throws -> Credentials { try Credentials.read(folder: folder) }

    /// Makes `key` the key new batches are sealed with (after a rotation); batches sealed
    /// already keep theirs.
    public func addKey(_ key: Credentials.Key) throws {
        var credentials = try credentials()
        credentials.keys.insert(key, at: 0)
        try credentials.write(folder: folder)
    }
}
