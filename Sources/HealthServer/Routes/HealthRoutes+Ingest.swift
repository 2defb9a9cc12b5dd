import Foundation
import HealthAutoExport
import HealthCore
import HealthServerRecords
import HealthWire
import Hummingbird

/// The ingest routes. Records go into the user's health store in one transaction (content
/// keys make a re-sent batch change nothing); the daily metrics of every local day they
/// touched are recomputed after the answer (``SampleIntake``, ``DayRecomputeService``).
extension HealthRoutes {
    /// Samples in and out: Health Auto Export's body, our own samples, deletions, and the
    /// change feed. Bodies up to ``ServerConfiguration/maxIngestBytes``.
    var sampleRoutes: RouteCollection<AuthenticatedContext> {
        Self.collection()
            .add(middleware: BodyLimitMiddleware(bytes: configuration.maxIngestBytes))
            .post("health-auto-export", use: postHealthAutoExport)
            .post("samples", use: postSamples)
            .delete("samples", use: deleteSamples)
            .get("changes", use: getChanges)
    }

    /// `POST /v1/health-auto-export[?tz=]`: the body the Health Auto Export app sends.
    func postHealthAutoExport(_ request: Request, _ context: AuthenticatedContext) async throws -> IngestReport {
        let user = try context.require(.write)
        let zone = try homeZoneOffer(request, user: user)
        let body = try await context.jsonBody(request)
        let batch = try await offload {
            do {
                return try HAEReader.read(body)
            } catch let error as HAEReader.ReadError {
                // Well-formed JSON in the app's envelope whose content cannot be read: 422.
                guard !error.pointer.isEmpty else { throw Problem.badRequest(error.reason) }
                throw Problem.unprocessable(error.reason, pointer: error.pointer)
            }
        }
        var report = try await samples.add(batch.records, user: user, zone: zone)
        report.ignoredKeys = batch.ignoredKeys
        report.unknownMetrics = batch.unknownMetrics
        return report
    }

    /// `POST /v1/samples[?tz=]` with an `Idempotency-Key`: `{"samples": [SampleWire…]}`. The
    /// same key with the same body replays the first answer (`Idempotent-Replayed: true`);
    /// with another body it is a 422; while the first is still running, another is a 409
    /// (``idempotent(_:_:_:)``).
    func postSamples(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let user = try context.require(.write)
        let zone = try homeZoneOffer(request, user: user)
        return try await idempotent(request, context) { body in
            let records = try await offload {
                let batch = try SampleWire.decoder().decode(SampleBatch.self, from: body)
                guard batch.samples.count <= 100_000 else { throw Problem.badRequest("at most 100,000 samples per request") }
                // A workout with its `workout` member is stored whole.
                return try batch.samples.enumerated().map { try $0.element.record(pointer: "/samples/\($0.offset)") }
            }
            return try await samples.add(records, user: user, zone: zone)
        }
    }

    /// Samples added and deleted, without HTTP.
    var samples: SampleIntake { SampleIntake(repositories: repositories, days: days) }
}
