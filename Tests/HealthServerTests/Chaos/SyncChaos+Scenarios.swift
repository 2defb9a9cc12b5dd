import Foundation
import HealthCore
import HealthSQLite
import HealthSync
import HealthWire

/// The scenarios that end a chaos run (issue 33 §2), without faults: the history a device
/// sends when its store's data ended long ago, and a type whose every sample is deleted.
extension SyncChaos {
    /// What the server should hold after one scenario, and what it holds.
    struct Scenario {
        var name: String
        var expected: [UUID: SampleWire]
        var server: [UUID: SampleWire]

        var missing: Set<UUID> { Set(expected.keys).subtracting(server.keys) }
        /// Samples the server holds and should not: deletions not applied, or history sent
        /// beyond the window.
        var extra: Set<UUID> { Set(server.keys).subtracting(expected.keys) }
        var different: Int { expected.count(where: { entry in server[entry.key].map { $0 != entry.value } ?? false }) }

        var summary: String {
            "\(name): \(expected.count) expected, \(server.count) on the server; "
                + "\(missing.count) missing, \(extra.count) extra, \(different) different"
        }
    }

    static let everything = DateInterval(start: .distantPast, end: .distantFuture)

    /// After the drain, with the server stopped: every sleep sample of the device is deleted
    /// and the device syncs — the server must drop them all (the type is no longer among the
    /// store's types, but the state follows it). Then a second person's store, whose data
    /// ended a year ago, syncs with the default `--backfill-days` (90): the server must hold
    /// exactly each type's samples that start at or after its newest end less 90 days; then
    /// with `--backfill-days all`: all of them.
    func endingScenarios(
        device: HealthDatabase, server: ServerProcess, proxyURL: String, secondToken: String
    ) async throws -> [Scenario] {
        var scenarios: [Scenario] = []

        _ = try await device.store.delete(.sleepAnalysis, overlapping: Self.everything, source: nil)
        try await server.start()
        try sync(db: deviceDB, state: stateFolder, backfill: "all")
        scenarios.append(
            Scenario(
                name: "every sleep sample deleted",
                expected: try await SyncEndToEndTests.contents(device.store, types: Self.types),
                server: try await stopAndRead(server, state: stateFolder)))

        let oldDB = folder.appendingPathComponent("old-device.sqlite").path
        let oldState = folder.appendingPathComponent("old-state").path
        let old = try HealthDatabase(path: oldDB)
        let lastDay = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 365 * 86400).rounded())
        let span = DateInterval(start: lastDay.addingTimeInterval(-120 * 86400), end: lastDay)
        _ = try await old.store.add((0..<max(settings.samples / 4, 200)).map { _ in Self.randomSample(in: span) })
        let all = try await SyncEndToEndTests.contents(old.store, types: Self.types)
        var lastNinetyDays: [UUID: SampleWire] = [:]
        for type in Self.types {
            guard let newest = try await old.store.latestSample(of: type) else { continue }
            let floor = newest.end.addingTimeInterval(-90 * 86400)
            for (uuid, sample) in all where sample.type == type.identifier && sample.start >= floor {
                lastNinetyDays[uuid] = sample
            }
        }
        try await server.start()
        _ = try ChildProcess.output(
            ["devices", "enrol", "--server", proxyURL, "--name", "chaos-old", "--state", oldState],
            environment: ["HEALTHPIPE_TOKEN": secondToken])
        try sync(db: oldDB, state: oldState, backfill: nil)
        scenarios.append(
            Scenario(
                name: "data that ended a year ago, 90 days", expected: lastNinetyDays,
                server: try await stopAndRead(server, state: oldState)))

        try await server.start()
        try sync(db: oldDB, state: oldState, backfill: "all")
        scenarios.append(
            Scenario(
                name: "data that ended a year ago, then all", expected: all,
                server: try await stopAndRead(server, state: oldState)))
        return scenarios
    }

    /// One `healthpipe sync --once` to its end (it must exit 0: the outbox drained).
    private func sync(db: String, state: String, backfill: String?) throws {
        _ = try ChildProcess.output(syncArguments(db: db, state: state, timeout: 120, backfill: backfill))
    }

    /// Stops the server and reads what it holds for the person of the state in `state`.
    private func stopAndRead(_ server: ServerProcess, state: String) async throws -> [UUID: SampleWire] {
        server.terminate()
        await server.waitForExit()
        return try await serverSamples(of: state)
    }
}
