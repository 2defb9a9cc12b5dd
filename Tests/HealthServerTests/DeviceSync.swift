import Foundation
import HealthCore
import HealthSync
import Testing

/// Alice's device enrolled on a harness's live server, syncing her whole history: the
/// set-up every end-to-end sync test shares.
struct DeviceSync {
    let state: SyncState
    let transport: HTTPSyncTransport

    /// Enrols a device named `name` for Alice on the server listening on `port`.
    init(_ harness: ServerHarness, port: Int?, name: String = "test") async throws {
        let port = try #require(port)
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let token = try #require(harness.tokens["alice"])
        state = try SyncState(folder: harness.folder.appendingPathComponent("sync").path)
        transport = HTTPSyncTransport(baseURL: url, token: token, timeout: 120)
        _ = try await DeviceEnrolment.enrol(server: url, token: token, name: name, state: state, transport: transport)
    }

    /// An engine sending `types` of `source`, the whole history (`backfill = .all`).
    func engine(_ source: any HealthQuerying, types: @escaping @Sendable () async throws -> [SampleType]) -> SyncEngine {
        var configuration = SyncConfiguration()
        configuration.backfill = .all
        return SyncEngine(
            source: source, state: state, transport: transport, configuration: configuration, types: types,
            onEvent: { _ in })
    }
}
