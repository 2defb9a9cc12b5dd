import Crypto
import Foundation
import HealthCore
import HealthServerRecords
import HealthWire
import Hummingbird

/// The change feed, deletions, and "delete my data" (docs/api.md).
extension HealthRoutes {
    /// `GET /v1/changes?type=T&since=A&limit=N`: the user's additions and deletions of `T`
    /// after anchor `A` (default 0), at most `N` (default 1,000, at most 10,000), in anchor order.
    func getChanges(
        _ request: Request, _ context: AuthenticatedContext
    ) async throws -> EditedResponse<WireJSON<ChangeFeedPage>> {
        let access = try await readAccess(context)
        let user = access.user
        let query = request.uri.queryParameters
        guard let name = query["type"].map(String.init), !name.isEmpty else {
            throw Problem.unprocessableQuery("give type=<a short name such as steps, or a HealthKit type identifier>")
        }
        guard Self.isTypeName(name) else {
            throw Problem.unprocessableQuery(
                "type must be a short name such as steps or a HealthKit type identifier (HK…, or HAE:<name>), not '\(name.prefix(80))'"
            )
        }
        // The one table of names (SampleTypeNames); a type beyond it when the user's store holds it.
        let type: SampleType
        do {
            // Among the stored types the token may read: a name of another kind is unknown to it,
            // as a type the person has no data of (no suggestion or status tells them apart).
            type = try await SampleTypeNames.type(named: name) {
                let stored = try await repositories.readableStore(user.id).queries.storedSampleTypes()
                return stored.filter { access.readable.contains(HealthDataCategory($0)) }
            }
        } catch let error as UnknownSampleTypeName {
            throw Problem.unprocessableQuery(error.description)
        }
        try access.require([HealthDataCategory(type)])
        let since = try Self.integer(query["since"], name: "since", default: 0, in: 0...Int64.max)
        let limit = try Self.integer(query["limit"], name: "limit", default: 1000, in: 1...10_000)
        let database = try await repositories.readableStore(user.id)
        var page = try await database.queries.changes(of: type, since: QueryAnchor(since), limit: Int(limit))
        // A workout's metadata of a kind the reader may not see (average METs, elevation, heart
        // rate) is left out, as `GET /v1/workouts/{id}` leaves it out.
        var withheld: Set<HealthDataCategory> = []
        if type == .workout {
            page.changes = page.changes.map { change in
                guard case .added(var sample, let anchor) = change else { return change }
                let kept = HealthDataCategory.workoutMetadata(sample.metadata, readableBy: access.readable)
                // Its identity stays what it is, whatever is left out.
                sample.givenUUID = sample.uuid
                sample.metadata = kept.entries
                withheld.formUnion(kept.withheld)
                return .added(sample, anchor: anchor)
            }
        }
        return EditedResponse(
            headers: Self.withheldHeader(withheld), response: WireJSON(value: ChangeFeedPage(page), encoder: SampleWire.encoder())
        )
    }

    /// `DELETE /v1/samples` with an `Idempotency-Key` and `{"uuids": [...]}` (at most 10,000):
    /// deletes them (the days they were on are recomputed after the answer), answers
    /// `{"deleted", "unknown", …, "days_pending"}`.
    /// A token that may not write the kind of a sample found is a 403 that deletes nothing.
    func deleteSamples(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let user = try context.require(.write)
        let zone = try homeZoneOffer(request, user: user)
        return try await idempotent(request, context) { body in
            let uuids = try await offload {
                let batch = try JSONDecoder().decode(DeletionRequest.self, from: body)
                guard (1...10_000).contains(batch.uuids.count) else {
                    throw Problem.unprocessable("give 1 to 10,000 UUIDs", pointer: "/uuids")
                }
                return try batch.uuids.enumerated().map { index, text in
                    guard let uuid = UUID(uuidString: text) else {
                        throw Problem.unprocessable(
                            "not a UUID such as 6F1C2A8E-3B5D-4E0A-9C7B-2D4E6F8A0B1C", pointer: "/uuids/\(index)")
                    }
                    return uuid
                }
            }
            return try await samples.delete(uuids, user: user, zone: zone)
        }
    }

    /// `path` without empty segments: `//v1/sync/batches/` → `/v1/sync/batches`.
    static func routePath(_ path: String) -> String {
        "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    /// The person's account: `DELETE /v1/me`.
    var accountRoutes: RouteCollection<AuthenticatedContext> {
        Self.collection().delete("me", use: deleteMe)
    }

    /// `DELETE /v1/me` with `Confirm-Delete: all-my-data`: deletes every row, file, upload
    /// and token of the caller, and answers with what was removed. Only the owner's token
    /// may: a scoped token gets a 403.
    func deleteMe(_ request: Request, _ context: AuthenticatedContext) async throws -> UserDeletionReport {
        let user = try context.requireOwner(.write, to: "delete the account")
        guard request.headers[.init("Confirm-Delete")!] == "all-my-data" else {
            throw Problem(
                .badRequest, "Confirmation missing",
                detail: "deleting all your data needs the header Confirm-Delete: all-my-data", pointer: "header/Confirm-Delete")
        }
        return try await repositories.deleteUser(user)
    }

    /// Runs `body` once per Idempotency-Key, as the IETF Idempotency-Key draft says: the
    /// same key with the same body replays the first answer (`Idempotent-Replayed: true`);
    /// with another body it is a 422; while the first request with the key is still
    /// running, another is a 409 (retry later: it will be replayed).
    ///
    /// A key belongs to its method and route (`POST /v1/samples` and `DELETE /v1/samples`
    /// never share one) and is remembered for ``RequestOnce/lifetime`` (24 h); after that
    /// the same key is a new request. The answer is looked up again once the key's slot is
    /// taken, so two requests racing with one key run it once (finding L1 of issue 32).
    func idempotent(
        _ request: Request, _ context: AuthenticatedContext, keyIgnoresCase: Bool = false,
        _ body: (Data) async throws -> some Encodable
    ) async throws -> Response {
        let user = context.user
        guard let given = request.headers[.init("Idempotency-Key")!], (1...200).contains(given.count) else {
            throw Problem.badRequest("send an Idempotency-Key header (1–200 characters) naming this batch")
        }
        // A scoped token's keys are its own: an owner's answer is never replayed to a token
        // that could not have made the request (its kinds are checked in `body`).
        let holder = user.token.role == .owner ? "" : "token \(user.token.id) "
        // The route as the router reads it: `/v1/samples/` and `//v1/samples` are the same
        // route, so the same key (a batch id in any letters, where it is one) replays there too.
        let key =
            "\(request.method.rawValue) \(Self.routePath(request.uri.path)) \(holder)\(keyIgnoresCase ? given.lowercased() : given)"
        let data = try await context.jsonBody(request)
        let answer: RequestOnce.Answer
        do {
            answer = try await once.run(userID: user.id, key: key, requestHash: Data(SHA256.hash(data: data))) {
                try HealthResponseEncoder.data(try await body(data))
            }
        } catch let refusal as RequestOnce.Refusal {
            throw Self.problem(refusal)
        } catch {
            // The user deleted meanwhile (the answer's row names them): a 401, not a 500.
            throw await repositories.explaining(error, userID: user.id)
        }
        switch answer {
        case .ran(let body):
            return HealthResponseEncoder.response(body)
        case .replayed(let remembered):
            return HealthResponseEncoder.response(
                remembered.body, status: HTTPResponse.Status(code: remembered.status),
                headers: [.init("Idempotent-Replayed")!: "true"])
        }
    }

    /// What a refusal of ``RequestOnce`` is over HTTP.
    static func problem(_ refusal: RequestOnce.Refusal) -> Problem {
        switch refusal {
        case .inProgress:
            Problem(
                .conflict, "Request in progress",
                detail: "a request with this Idempotency-Key is still being processed; retry it when that one has finished")
        case .reusedWithAnotherBody:
            Problem(
                .unprocessableContent, "Idempotency-Key reused",
                detail: "this Idempotency-Key was used with a different body; use a new key for a new batch",
                pointer: "header/Idempotency-Key")
        }
    }

    /// Whether `text` can be a type's name at all: printable ASCII without spaces, at most
    /// 200 characters. The table (``SampleTypeNames``) then says which type, or suggests
    /// the closest names ("StepCount": steps); the schema's pattern is the narrower
    /// `^((HK|HAE:)[!-~]*|[a-z][a-z0-9_]*)$`.
    static func isTypeName(_ text: String) -> Bool {
        text.utf8.count <= 200 && text.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
    }
}
