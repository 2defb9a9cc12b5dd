import Foundation
import HealthCore
import HealthServerRecords
import HealthWire
import Hummingbird

/// `POST /v1/sync/batches`: sealed batches from enrolled devices (docs/sync.md).
extension HealthRoutes {
    /// Sealed batches, up to ``ServerConfiguration/maxEnvelopeBytes``.
    var syncRoutes: RouteCollection<AuthenticatedContext> {
        Self.collection()
            .add(middleware: BodyLimitMiddleware(bytes: configuration.maxEnvelopeBytes))
            .post("sync/batches", use: postSyncBatch)
    }

    /// Takes a ``SyncEnvelope`` with `Idempotency-Key` = its batch id (a resent batch is
    /// answered as the first time), and hands it to ``SyncBatchIntake``.
    func postSyncBatch(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let user = try context.require(.write)
        let zone = try homeZoneOffer(request, user: user)
        let key = request.headers[.init("Idempotency-Key")!]
        // The key is the batch id, a UUID: in any letters the same batch.
        return try await idempotent(request, context, keyIgnoresCase: true) { body in
            let envelope = try JSONDecoder().decode(SyncEnvelope.self, from: body)
            guard key?.lowercased() == envelope.batchID.uuidString.lowercased() else {
                throw Problem.unprocessable(
                    "the Idempotency-Key must be the envelope's batch_id", pointer: "header/Idempotency-Key")
            }
            return try await SyncBatchIntake(
                configuration: configuration, repositories: repositories, days: days, once: once,
                logger: context.logger
            ).receive(envelope, user: user, zone: zone)
        }
    }
}
