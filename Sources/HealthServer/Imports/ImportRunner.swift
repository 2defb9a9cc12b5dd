import Foundation
import HealthCore
import HealthImport
import HealthImportReader
import HealthServerRecords
import HealthWire
import Logging

/// Imports uploaded exports in the background: one at a time per user, and at most
/// ``Limits/concurrency`` at once, each of another user (an import is CPU-bound for seconds
/// to minutes: one user's must not hold up everyone's, nor starve the request handlers).
///
/// A job's state is saved when it starts, every `progressInterval` while it runs, and
/// when it ends; the uploaded file is deleted when it ends, whatever the outcome. An import
/// is one transaction in the user's store, so a server that stops mid-import leaves the
/// store as it was; `failUnfinishedImports` marks such a job failed at the next start.
/// An upload may inflate to ``Limits/inflationCap(uploadBytes:)`` at most: past it the job
/// fails as a zip bomb.
///
/// The runner holds the work; ``ImportService``, a service of the server's service group,
/// runs it: the imports handed over by uploads and, with several servers on one database,
/// the jobs it claims from the shared queue.
final class ImportRunner: Sendable {
    /// How many imports, and how large.
    struct Limits: Sendable {
        /// Imports running at once (each of another user).
        var concurrency = 2
        /// Imports queued or running per user.
        var perUser = 2
        /// An upload inflates to this many times its size at most...
        var inflationRatio: Int64 = 50
        /// ...and to this many bytes at most, whatever its size.
        var maxInflatedBytes: Int64 = 16 << 30

        init() {}

        init(_ configuration: ServerConfiguration) {
            concurrency = max(1, configuration.importConcurrency)
            perUser = max(1, configuration.maxImportsInFlightPerUser)
            inflationRatio = max(1, configuration.maxInflationRatio)
            maxInflatedBytes = max(0, configuration.maxInflatedBytes)
        }

        /// The bytes an upload of `uploadBytes` may inflate to: `inflationRatio` times its
        /// size, `maxInflatedBytes` at most.
        func inflationCap(uploadBytes: Int64) -> Int64 {
            let (scaled, overflow) = max(1, uploadBytes).multipliedReportingOverflow(by: inflationRatio)
            return min(overflow ? .max : scaled, maxInflatedBytes)
        }
    }

    let repositories: ServerRepositories
    let limits: Limits
    let progressInterval: TimeInterval
    let logger: Logger
    /// The imports running now, `limits.concurrency` at most.
    private let slots: ImportSlots
    /// Per user: their imports one after another (a second waits without taking a slot).
    private let importing = KeyedMutex()
    /// Per user: deciding whether an upload may start, and recording that it has ended.
    private let admissions = KeyedMutex()
    /// Per user: uploads being received, not yet a recorded job.
    private let receiving = Locked<[String: Int]>([:])
    /// Per user: jobs this server has claimed from the shared queue and not finished.
    let claimedHere = Locked<[String: Int]>([:])

    init(
        repositories: ServerRepositories, limits: Limits = Limits(), progressInterval: TimeInterval = 0.5, logger: Logger
    ) {
        self.repositories = repositories
        self.limits = limits
        self.progressInterval = progressInterval
        self.logger = logger
        slots = ImportSlots(limits.concurrency)
    }

    /// Hands `file`'s import for `user` to the ``ImportService`` running this runner;
    /// returns at once. A job handed over while no service runs waits for the next one; a
    /// process that ends first leaves it queued, and the next start fails it
    /// (``ServerStore/failUnfinishedImports()``).
    func start(_ job: ImportJob, file: String, user: User, zone: TimeZone?, recompute: @escaping RecomputeDays) {
        let work = HandedOver(job: job, file: file, userID: user.id, zone: zone, recompute: recompute)
        handedOver.withLock { $0.append(work) }
        arrivals.ring()
    }

    /// An upload's import, waiting for a service to run it.
    struct HandedOver: Sendable {
        let job: ImportJob
        let file: String
        let userID: String
        let zone: TimeZone?
        let recompute: RecomputeDays
    }

    /// The imports handed over by ``start(_:file:user:zone:recompute:)`` and not yet taken.
    private let handedOver = Locked<[HandedOver]>([])
    /// Rung when an import is handed over.
    let arrivals = Doorbell()
    /// Rung when a job is queued in the shared queue (``ring()``).
    let doorbell = Doorbell()

    /// The imports handed over since the last call, in order; each is taken once.
    func takeHandedOver() -> [HandedOver] {
        handedOver.withLock { work in
            defer { work = [] }
            return work
        }
    }

    /// Wakes the claim loops: a job was queued in the shared queue.
    func ring() { doorbell.ring() }

    /// Whether `userID` may upload one more export: `false` when ``Limits/perUser`` of
    /// theirs are queued or running already (the store's jobs, on PostgreSQL every
    /// server's) or being received. When `true`, the upload counts as being received
    /// until ``endUpload(of:)``: call it once its job is recorded, or the upload refused.
    func beginUpload(of userID: String) async throws -> Bool {
        let limit = limits.perUser
        return try await admissions.withLock(userID) {
            let unfinished = try await self.repositories.imports.unfinishedImportCount(userID: userID)
            return self.receiving.withLock { receiving in
                let received = receiving[userID, default: 0]
                guard unfinished + received < limit else { return false }
                receiving[userID] = received + 1
                return true
            }
        }
    }

    /// Ends an upload ``beginUpload(of:)`` let in. Under the same lock: a job recorded just
    /// before is counted by the store from here, never by neither.
    func endUpload(of userID: String) async {
        _ = try? await admissions.withLock(userID) {
            self.receiving.withLock { receiving in
                let left = receiving[userID, default: 1] - 1
                receiving[userID] = left > 0 ? left : nil
            }
        }
    }

    /// Computes and upserts the days of the store's dirty spans; answers how many days and
    /// what the upsert did.
    typealias RecomputeDays = @Sendable (any UserHealthStore) async throws -> (Int, UpsertCounts)

    private struct Live: Sendable {
        var started = false
        var progress: ImportProgress?
    }

    /// Runs the job once the user's previous import has ended and a slot is free; the job
    /// stays `queued` meanwhile.
    func run(
        _ job: ImportJob, file: String, userID: String, zone: TimeZone?, recompute: @escaping RecomputeDays
    ) async {
        _ = try? await importing.withLock(userID) {
            await self.slots.withSlot {
                await self.runNow(job, file: file, userID: userID, zone: zone, recompute: recompute)
            }
        }
    }

    private func runNow(_ job: ImportJob, file: String, userID: String, zone: TimeZone?, recompute: RecomputeDays) async {
        var job = job
        let cap = limits.inflationCap(uploadBytes: job.uploadBytes)
        let live = Locked(Live())
        do {
            // Under the user's lock: the user's deletion is refused while the job is unfinished,
            // and a job whose user was deleted before it started fails without creating a store.
            let queued = job
            job = try await repositories.writing(userID) { (database) -> ImportJob in
                var job = queued
                // The whole store is dirty before the import commits: if the server dies after
                // the commit, whoever finds the span next computes the days (issue 32, P2).
                try await database.markDirty([DirtySpan.everything], zone: zone?.identifier)
                let summary: ImportSummary = try await withThrowingTaskGroup(of: ImportSummary?.self) { group in
                    group.addTask { try await self.importExport(file: file, into: database, cap: cap, live: live) }
                    group.addTask {
                        // Saves the state when the import starts and whenever its progress has
                        // moved; cancelled when the import ends.
                        var saved: (bytes: Int64, records: Int)?
                        while !Task.isCancelled {
                            try? await Task.sleep(for: .seconds(self.progressInterval))
                            let now = live.withLock { $0 }
                            let position = (bytes: now.progress?.bytes ?? 0, records: now.progress?.records ?? 0)
                            guard now.started, saved.map({ $0 != position }) ?? true else { continue }
                            var update = queued
                            update.state = .running
                            update.apply(now.progress)
                            update.updatedAt = Date()
                            try? await self.repositories.imports.saveImport(update, userID: userID)
                            saved = position
                        }
                        return nil
                    }
                    // The importer's summary, or `nil` when the group was cancelled (the server
                    // stopping) before it answered: the job fails instead of the process trapping.
                    guard let first = try await group.next(), let summary = first else { throw CancellationError() }
                    group.cancelAll()
                    return summary
                }
                job.records = summary.recordsRead
                job.bytesRead = summary.bytes
                job.totalBytes = max(live.withLock { $0.progress?.totalBytes } ?? 0, summary.bytes)
                job.added = summary.totalAdded
                job.duplicates = summary.duplicates.values.reduce(0, +)
                job.updated = summary.totalUpdated > 0 ? summary.totalUpdated : nil
                job.alreadyImported = summary.alreadyImported != nil
                // Already imported or not: the days of every dirty span, an earlier run's that
                // died after its commit included. A failure here leaves the spans for the next
                // write or read; the job says the samples are stored and the days pending.
                do {
                    let (days, daily) = try await recompute(database)
                    job.daysRecomputed = days
                    job.daily = daily
                } catch {
                    logger.error(
                        "import stored, days not computed; they will be on the next write or read",
                        metadata: ["job": "\(job.id)", "error.type": "\(type(of: error))"])
                    job.daysRecomputed = 0
                    job.daysPending = true
                }
                job.state = .succeeded
                job.finishedAt = Date()
                job.updatedAt = job.finishedAt!
                return job
            }
        } catch {
            job = job.failed(Self.reason(error, file: file))
            logger.notice("import failed", metadata: ["job": "\(job.id)", "error.type": "\(type(of: error))"])
        }
        // Gone before the job says it ended: a client that sees the final state never finds
        // the upload still on disk.
        try? FileManager.default.removeItem(atPath: file)
        do {
            try await repositories.imports.saveImport(job, userID: userID)
        } catch {
            logger.error("could not save an import's result", metadata: ["job": "\(job.id)"])
        }
    }

    /// Imports `file`, its entries inflating to `cap` bytes at most. The import runs on
    /// threads of its own (``HealthImporter``'s, or the PostgreSQL pipeline's): awaiting it
    /// holds no thread of the cooperative pool.
    private func importExport(
        file: String, into database: any UserHealthStore, cap: Int64, live: Locked<Live>
    ) async throws -> ImportSummary {
        live.withLock { $0.started = true }
        var settings = HealthImporter.Options()
        settings.progressInterval = progressInterval
        settings.maxInflatedBytes = cap
        return try await database.importExport(path: file, options: settings) { progress in
            live.withLock { $0.progress = progress }
        }
    }

    /// What went wrong, for the person who uploaded: an ``ImportError``'s own words (which
    /// name the entry, line and record, never a value) with the server's upload path
    /// replaced by "the upload"; any other error (a file system or database error, whose
    /// text may hold the server's folders) only as "could not be stored".
    static func reason(_ error: any Error, file: String) -> String {
        guard let error = error as? ImportError else {
            return "the upload could not be imported because of a problem on the server; try again"
        }
        // The path as given and as the importer may have made it absolute (a relative
        // --server-db or data folder): neither is ever said.
        var text = error.description
        for path in [URL(fileURLWithPath: file).standardizedFileURL.path, file] {
            let folder = (path as NSString).deletingLastPathComponent
            text = text.replacingOccurrences(of: path, with: "the upload")
            if !folder.isEmpty { text = text.replacingOccurrences(of: folder + "/", with: "") }
        }
        return text.replacingOccurrences(of: (file as NSString).lastPathComponent, with: "the upload")
    }
}

extension ImportJob {
    mutating func apply(_ progress: ImportProgress?) {
        guard let progress else { return }
        bytesRead = progress.bytes
        totalBytes = progress.totalBytes
        records = progress.records
    }
}
