import Foundation
import HealthCore
import HealthImport
import HealthImportReader
import HealthStore
import Logging

/// Imports uploaded exports in the background, one at a time, on a thread of their own (an
/// import is CPU-bound for seconds to minutes and must not starve the request handlers).
///
/// A job's state is saved when it starts, every `progressInterval` while it runs, and
/// when it ends; the uploaded file is deleted when it ends, whatever the outcome. An import
/// is one transaction in the user's store, so a server that stops mid-import leaves the
/// store as it was; `failUnfinishedImports` marks such a job failed at the next start.
final class ImportRunner: Sendable {
    let repositories: ServerRepositories
    let progressInterval: TimeInterval
    let logger: Logger
    /// Serial: one import at a time, whichever user it belongs to.
    private let queue = DispatchQueue(label: "healthpipe.imports", qos: .utility)

    init(repositories: ServerRepositories, progressInterval: TimeInterval = 0.5, logger: Logger) {
        self.repositories = repositories
        self.progressInterval = progressInterval
        self.logger = logger
    }

    /// Starts importing `file` for `user`; returns at once.
    func start(_ job: ImportJob, file: String, user: User, zone: TimeZone, recompute: @escaping RecomputeDays) {
        Task { await run(job, file: file, userID: user.id, zone: zone, recompute: recompute) }
    }

    /// Set by ``ring()``: a job was queued here, no need to wait for the next poll.
    private let bell = Locked(false)

    /// With several servers on one database: claims queued jobs — this server's and
    /// others', a dead server's too — one at a time, for as long as the process runs,
    /// polling every `poll` seconds and at once after ``ring()``. `recompute` gives each
    /// job's recomputation of days for its user and zone.
    func startClaiming(
        _ queue: any SharedImportQueue, poll: TimeInterval = 1,
        recompute: @escaping @Sendable (_ userID: String, _ zone: TimeZone) -> RecomputeDays
    ) {
        let (bell, logger, folder) = (bell, logger, repositories.uploadFolder)
        Task {
            while !Task.isCancelled {
                do {
                    let claimed = try await queue.claimNextImport(into: folder) { claimed in
                        let zone = TimeZone(identifier: claimed.zone) ?? .gmt
                        await self.run(
                            claimed.job, file: claimed.file, userID: claimed.userID, zone: zone,
                            recompute: recompute(claimed.userID, zone))
                    }
                    if claimed { continue }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("import queue: \(type(of: error)); trying again")
                }
                // The next poll, or sooner when this server queues a job.
                let deadline = Date().addingTimeInterval(poll)
                while Date() < deadline, !bell.withLock({ $0 }), !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                bell.withLock { $0 = false }
            }
        }
    }

    /// Wakes the claim loop.
    func ring() { bell.withLock { $0 = true } }

    /// Computes and upserts the days of the store's dirty spans; answers how many days and
    /// what the upsert did.
    typealias RecomputeDays = @Sendable (any UserHealthStore) async throws -> (Int, UpsertCounts)

    private struct Live: Sendable {
        var started = false
        var progress: ImportProgress?
    }

    private func run(_ job: ImportJob, file: String, userID: String, zone: TimeZone, recompute: RecomputeDays) async {
        var job = job
        let live = Locked(Live())
        do {
            // Under the user's lock: the user's deletion is refused while the job is unfinished,
            // and a job whose user was deleted before it started fails without creating a store.
            let queued = job
            job = try await repositories.writing(userID) { (database) -> ImportJob in
                var job = queued
                // The whole store is dirty before the import commits: if the server dies after
                // the commit, whoever finds the span next computes the days (issue 32, P2).
                try await database.markDirty([DirtySpan.everything], zone: zone.identifier)
                let summary: ImportSummary = try await withThrowingTaskGroup(of: ImportSummary?.self) { group in
                    group.addTask { try await self.importOnQueue(file: file, database: database, live: live) }
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

    private func importOnQueue(file: String, database: any UserHealthStore, live: Locked<Live>) async throws -> ImportSummary {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                live.withLock { $0.started = true }
                var settings = HealthImporter.Options()
                settings.progressInterval = self.progressInterval
                let options = settings
                // The queue's thread waits for the import (its own threads do the work): one
                // import at a time, whichever store it writes.
                continuation.resume(
                    with: Result {
                        try BlockingWork.wait {
                            try await database.importExport(path: file, options: options) { progress in
                                live.withLock { $0.progress = progress }
                            }
                        }
                    })
            }
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
        let folder = (file as NSString).deletingLastPathComponent
        return error.description.replacingOccurrences(of: file, with: "the upload")
            .replacingOccurrences(of: (file as NSString).lastPathComponent, with: "the upload")
            .replacingOccurrences(of: folder.isEmpty ? file : folder + "/", with: "")
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
