import Foundation
import HealthCore
import HealthMetrics
import HealthWire

/// Users and their tokens. Implementations store only token hashes.
///
/// Each user has one owner token (made with the user) and any number of scoped tokens the
/// owner makes for someone else (a coach): read-only unless given write kinds, limited to
/// their kinds and, for reading, to what the owner granted on the consent page.
public protocol UserRepository: Sendable {
    /// Creates a user with their owner token (every kind of data, with `scopes`) and returns
    /// the token, which is never stored or shown again.
    func addUser(name: String, scopes: Set<Scope>) async throws -> (User, BearerToken)
    /// Every user, each with their owner token.
    func users() async throws -> [User]
    /// Revokes the user, and with them every token of theirs; `false` when there is no such live user.
    func revoke(name: String) async throws -> Bool
    /// Deletes the user with everything the server keeps of them in this store — their
    /// row and tokens, daily metrics, idempotency keys, import jobs, devices and keys — in
    /// one transaction; returns the rows deleted per table. Throws ``ImportInProgressError``
    /// (nothing deleted) when an import of theirs is queued or running.
    func deleteUser(id: String) async throws -> [String: Int]
    /// The live user a token belongs to, carrying that token (owner or scoped), or `nil`.
    func authenticate(_ token: BearerToken) async throws -> User?
    /// ``authenticate(_:)`` and the user's consent in the same read, for the reads every
    /// request makes (a store without the join answers `.notRead`).
    func authenticateWithConsent(_ token: BearerToken) async throws -> (user: User, consent: ReadConsent)?
    /// Makes a scoped token for the live user `userID`'s data and returns it with its
    /// secret (shown once): it reads `readTypes` (each once the owner grants it) and adds
    /// and deletes samples of `writeTypes` only (empty: read-only). Throws ``TokenError``
    /// for a bad name or kinds, an unknown user, or a live token of that name.
    func addToken(
        userID: String, name: String, readTypes: Set<HealthDataCategory>, writeTypes: Set<HealthDataCategory>
    ) async throws -> (APIToken, BearerToken)
    /// The user's tokens, the owner's first, then the scoped ones oldest first, revoked ones included.
    func tokens(userID: String) async throws -> [APIToken]
    /// Revokes the user's live scoped token, or connected app (OAuth), `name` at once; `false` when there is none.
    /// (The owner token goes only with the user: ``revoke(name:)``.)
    func revokeToken(userID: String, name: String) async throws -> Bool
    /// Whether the user `id` exists (revoked or not): `false` once deleted.
    func userExists(id: String) async throws -> Bool
    /// The person's home zone (docs/api.md §Home zone): the IANA zone their days are
    /// counted in; `nil` before a write or `PUT /v1/me/zone` named one (their days are UTC's).
    func homeZone(userID: String) async throws -> String?
    /// Sets the person's home zone to `zone` — with `onlyIfUnset`, only when they have none —
    /// and answers the zone in effect afterwards (`nil`: no such user).
    func setHomeZone(_ zone: String, userID: String, onlyIfUnset: Bool) async throws -> String?
}

/// The consent read with a token (``UserRepository/authenticateWithConsent(_:)``).
public enum ReadConsent: Sendable {
    /// Not read: ask ``WebAccessRepository/consent(userID:)``.
    case notRead
    /// Read with the token: the person's consent, `nil` when they have saved none.
    case read(Consent?)
}

extension UserRepository {
    public func authenticateWithConsent(_ token: BearerToken) async throws -> (user: User, consent: ReadConsent)? {
        try await authenticate(token).map { ($0, .notRead) }
    }

    /// The user named `name` (live or revoked), with their owner token, or `nil`.
    public func user(named name: String) async throws -> User? {
        try await users().first { $0.name == name }
    }

    /// `healthpipe users token add`: a scoped token of the live user named `owner`.
    public func addToken(
        owner: String, name: String, readTypes: Set<HealthDataCategory>, writeTypes: Set<HealthDataCategory>
    ) async throws -> (APIToken, BearerToken) {
        guard let user = try await self.user(named: owner), user.revokedAt == nil else {
            throw TokenError.noSuchUser(owner)
        }
        return try await addToken(userID: user.id, name: name, readTypes: readTypes, writeTypes: writeTypes)
    }

    /// `healthpipe users token list`: the tokens of the user named `owner`.
    public func tokens(owner: String) async throws -> [APIToken] {
        guard let user = try await self.user(named: owner) else { throw TokenError.noSuchUser(owner) }
        return try await tokens(userID: user.id)
    }

    /// `healthpipe users token revoke`: revokes the live scoped token `name` of the user named
    /// `owner`; `false` when there is none.
    public func revokeToken(owner: String, name: String) async throws -> Bool {
        guard let user = try await self.user(named: owner) else { throw TokenError.noSuchUser(owner) }
        return try await revokeToken(userID: user.id, name: name)
    }
}

/// Why a scoped token was not made.
public struct TokenError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public static func noSuchUser(_ name: String) -> TokenError {
        TokenError(description: "no live user '\(name)'")
    }

    public static func exists(_ name: String) -> TokenError {
        TokenError(description: "a live token named '\(name)' exists already; revoke it first or choose another name")
    }

    public static let invalidName = TokenError(
        description: "a token's name is 1–64 letters, digits, '-', '_' or '.', and not 'owner'")

    public static let noKinds = TokenError(description: "a scoped token reads at least one kind of data")

    public static let writeNotRead = TokenError(description: "a token may write only kinds it also reads")

    /// Checks a scoped token's name and kinds before it is stored.
    package static func check(name: String, readTypes: Set<HealthDataCategory>, writeTypes: Set<HealthDataCategory>) throws {
        guard APIToken.isValidName(name) else { throw invalidName }
        guard !readTypes.isEmpty else { throw noKinds }
        guard writeTypes.isSubset(of: readTypes) else { throw writeNotRead }
    }
}

/// Consent per user, and the dashboard's sign-in sessions.
public protocol WebAccessRepository: Sendable {
    /// The person's consent, or `nil` when they never decided.
    func consent(userID: String) async throws -> Consent?
    /// Replaces the person's consent.
    func saveConsent(_ consent: Consent, userID: String) async throws
    /// Starts a session at `now`: only the SHA-256 of its id is stored, with its CSRF token.
    /// Sessions expired by `now` are removed.
    func createSession(idHash: Data, userID: String, csrfToken: String, now: Date, expiresAt: Date) async throws
    /// The live user (with their owner token: only the owner signs in) and CSRF token of an
    /// unexpired session, or `nil` (unknown, expired, signed out, or the user revoked).
    func session(idHash: Data, now: Date) async throws -> (user: User, csrfToken: String)?
    /// Ends a session (signing out); ends nothing when there is no such session.
    func deleteSession(idHash: Data) async throws
}

/// Normalised daily metrics per user, one row per (user, local date, normalisation version).
public protocol DailyMetricsRepository: Sendable {
    /// Inserts new days, replaces changed ones and leaves identical ones alone (equal in
    /// every field but `created_at`), in one transaction. A retried request changes nothing.
    func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts
    /// The user's days of rules `version` from `first` through `last`, oldest first.
    func dailyMetrics(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws
        -> [NormalizedDailyMetrics]
    /// The figures the readiness engine reads of the same days (``DailyFigures``), oldest
    /// first. A store may read them without decoding the days' metadata; by default they
    /// are taken from ``dailyMetrics(userID:from:through:version:)``.
    func dailyFigures(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws -> [DailyFigures]
    /// Rows of daily metrics per user id (for `users list` and the load check).
    func dailyRowCounts() async throws -> [String: Int]
    /// Deletes the user's days of rules `version` dated outside `dates` whose span overlaps
    /// `interval`: days of another zone beside days just computed over `interval` (a home
    /// zone changed, a trip's zone come or gone), which would count their instants twice.
    /// Answers how many.
    func deleteDays(
        userID: String, version: NormalizationVersion, overlapping interval: DateInterval,
        outside dates: ClosedRange<LocalDate>
    ) async throws -> Int
    /// Throws when the storage cannot answer (for `/readyz`).
    func ping() async throws
}

extension DailyMetricsRepository {
    public func dailyFigures(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws -> [DailyFigures] {
        try await dailyMetrics(userID: userID, from: first, through: last, version: version).map { day in
            guard let figures = DailyFigures(day) else { throw StoredDayError(column: "local_date") }
            return figures
        }
    }
}

/// Everything the server keeps of its own, in one database: SQLite (`SQLiteServerStore`)
/// or PostgreSQL (`PostgresServerStore`).
public protocol ServerStore: UserRepository, DailyMetricsRepository, IdempotencyRepository, ImportJobRepository,
    DeviceRepository, WebAccessRepository, OAuthRepository
{
    /// Releases the database's connections; the store is unusable afterwards.
    func close() async

    /// The import queue every server on this database shares (PostgreSQL), or `nil` when
    /// imports run in the server that took the upload (SQLite: one server per file).
    var sharedImportQueue: (any SharedImportQueue)? { get }

    /// The in-flight request slots every server on this database shares (PostgreSQL), or
    /// `nil` when the server's own, in its process, suffice (SQLite).
    var sharedInFlightSlots: (any InFlightSlots)? { get }

    /// The one-statement reader of days (``CurrentDaysReading``) when this store and
    /// `healthStores` are one database, or `nil`: the server then reads in steps.
    func currentDaysReader(with healthStores: any UserHealthStores) -> (any CurrentDaysReading)?
}

extension ServerStore {
    public func currentDaysReader(with healthStores: any UserHealthStores) -> (any CurrentDaysReading)? { nil }
}

/// A name that is already taken.
public struct UserExistsError: Error, CustomStringConvertible {
    public let name: String

    public init(name: String) { self.name = name }

    public var description: String { "a user named '\(name)' exists already" }
}

/// Responses remembered by `Idempotency-Key`, per user.
public protocol IdempotencyRepository: Sendable {
    /// The remembered request hash and response for `key`, if remembered at `since` or later.
    func remembered(userID: String, key: String, since: Date) async throws -> RememberedResponse?
    /// Remembers a response at `at` (the first one wins when two arrive at once); forgets
    /// the user's answers older than a day before `at`, and replaces an expired one of `key`.
    func remember(userID: String, key: String, response: RememberedResponse, at: Date) async throws
}

/// A response kept for replay.
public struct RememberedResponse: Hashable, Sendable {
    /// SHA-256 of the request body.
    public var requestHash: Data
    public var status: Int
    public var body: Data

    public init(requestHash: Data, status: Int, body: Data) {
        self.requestHash = requestHash
        self.status = status
        self.body = body
    }
}

/// Background imports of uploaded exports (`POST /v1/imports`), per user.
public protocol ImportJobRepository: Sendable {
    /// Inserts or replaces the job.
    func saveImport(_ job: ImportJob, userID: String) async throws
    /// The user's job `id`, or `nil` (another user's job is `nil` too).
    func importJob(id: String, userID: String) async throws -> ImportJob?
    /// Every queued or running job, with its user.
    func unfinishedImports() async throws -> [(userID: String, job: ImportJob)]
}

extension ImportJobRepository {
    /// How many of user `userID`'s jobs are queued or running.
    public func unfinishedImportCount(userID: String) async throws -> Int {
        try await unfinishedImports().filter { $0.userID == userID }.count
    }

    /// Marks every queued or running job failed with `reason` (at start-up: a job that was
    /// running when the server stopped is not running any more). Returns how many.
    public func failUnfinishedImports(reason: String) async throws -> Int {
        let unfinished = try await unfinishedImports()
        for (userID, job) in unfinished { try await saveImport(job.failed(reason), userID: userID) }
        return unfinished.count
    }
}

/// Imports shared by several servers on one database (PostgreSQL): the upload is stored
/// in the database, and a server claims a job by locking its row (`FOR UPDATE SKIP
/// LOCKED`) for as long as it imports, so no two servers run one job at once, and a job
/// whose server died (its connection, and with it the lock, gone) is claimed by another.
public protocol SharedImportQueue: Sendable {
    /// Stores the upload at `file` (then removable) and queues the job for any server;
    /// `zone` is the upload's `tz`, `""` when it named none.
    func enqueue(_ job: ImportJob, userID: String, zone: String, file: String) async throws
    /// Claims the oldest unclaimed unfinished job, if any: writes its upload to a file in
    /// `folder` and runs `work` while holding the claim; the job's upload and claim are
    /// removed once `work` returns. `false` when there was nothing to claim.
    func claimNextImport(into folder: String, _ work: (ClaimedImport) async -> Void) async throws -> Bool
    /// ``claimNextImport(into:_:)``, leaving the jobs of `skippingUsers` to a later claim
    /// (users this server is importing for: their next job would wait for the last).
    func claimNextImport(
        into folder: String, skippingUsers: Set<String>, _ work: (ClaimedImport) async -> Void
    ) async throws -> Bool
}

extension SharedImportQueue {
    /// A queue that cannot skip users claims as ``claimNextImport(into:_:)`` does.
    public func claimNextImport(
        into folder: String, skippingUsers: Set<String>, _ work: (ClaimedImport) async -> Void
    ) async throws -> Bool {
        try await claimNextImport(into: folder, work)
    }
}

/// A job claimed by this server.
public struct ClaimedImport: Sendable {
    public var job: ImportJob
    public var userID: String
    /// The upload's `tz`, `""` when it named none.
    public var zone: String
    /// The upload, written to this server's disk.
    public var file: String

    public init(job: ImportJob, userID: String, zone: String, file: String) {
        self.job = job
        self.userID = userID
        self.zone = zone
        self.file = file
    }
}

extension ImportJob {
    /// The JSON both stores keep (ISO 8601 instants, sorted keys).
    package func storedJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    package init(storedJSON json: String) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        self = try decoder.decode(ImportJob.self, from: Data(json.utf8))
    }
}

/// Requests that must not run twice at once — the first request of an (user,
/// Idempotency-Key), one sync batch per device — hold a slot while they run.
public protocol InFlightSlots: Sendable {
    /// Takes `slot`; `false` when another request holds it.
    func begin(_ slot: String) async throws -> Bool
    /// Gives `slot` back.
    func end(_ slot: String) async
}

/// The steps of an `Idempotency-Key` around its request's work in one round trip each, where
/// the answers and the slots are one database (PostgreSQL); in steps they are five (look-up,
/// slot, look-up again, remember, slot back).
public protocol OnceInOneStatement: IdempotencyRepository, InFlightSlots {
    /// Takes `slot` unless another request holds it, then reads the answer remembered for
    /// (`userID`, `key`) at `since` or later, in a snapshot taken after the slot (an answer
    /// remembered before its slot was given back is seen). A slot taken is given back at
    /// once when there is an answer.
    func beginOnce(slot: String, userID: String, key: String, since: Date) async throws -> OnceStart
    /// ``IdempotencyRepository/remember(userID:key:response:at:)`` and ``InFlightSlots/end(_:)``
    /// of `slot`, in one transaction.
    func remember(userID: String, key: String, response: RememberedResponse, at: Date, ending slot: String) async throws
}

/// What ``OnceInOneStatement/beginOnce(slot:userID:key:since:)`` found.
public enum OnceStart: Sendable, Equatable {
    /// The key's answer, remembered; no slot is held.
    case remembered(RememberedResponse)
    /// No answer; the slot is the caller's to give back.
    case taken
    /// No answer, and another request holds the slot.
    case held
}

/// A user with an import queued or running cannot be deleted until it ends.
public struct ImportInProgressError: Error, CustomStringConvertible {
    public init() {}

    public var description: String { "an import of this user's data is queued or running; delete again when it has ended" }
}

/// A user id that is not made of a UUID's characters, refused before it names a file.
public struct InvalidUserID: Error, CustomStringConvertible {
    public init() {}

    public var description: String { "user ids are UUIDs" }
}
