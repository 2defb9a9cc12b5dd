import Foundation
import HealthCore
import HealthServerRecords
import HealthWire
import Hummingbird
import NIOCore

/// `POST /v1/imports` and `GET /v1/imports/{id}`: an Apple Health `export.zip` uploaded,
/// streamed to disk, and imported in the background.
extension HealthRoutes {
    var importRoutes: RouteCollection<AuthenticatedContext> {
        Self.collection()
            .post("imports", use: postImport)
            .get("imports/{id}", use: getImport)
    }

    /// Streams the body to `uploads/<id>.zip` (413 past `maxUploadBytes`, checked against
    /// `Content-Length` first and against the bytes received after), then answers 202 with
    /// the job and `Location: /v1/imports/<id>`. An export may hold every kind of data, so
    /// the token needs write for every kind (a scoped token with fewer gets a 403). A user
    /// with `maxImportsInFlightPerUser` imports queued, running or being uploaded gets a 429
    /// before a byte is stored.
    func postImport(_ request: Request, _ context: AuthenticatedContext) async throws -> EditedResponse<ImportJob> {
        let user = try context.require(.write)
        try WritePermission.require(Set(HealthDataCategory.allCases), user: user)
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/zip") || type.hasPrefix("application/octet-stream") else {
            throw Problem(
                .unsupportedMediaType, "Unsupported media type",
                detail: "send the export.zip as the body with Content-Type: application/zip")
        }
        let zone = try homeZoneOffer(request, user: user)
        let limit = configuration.maxUploadBytes
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit {
            throw Self.uploadTooLarge(limit)
        }
        guard try await imports.beginUpload(of: user.id) else {
            throw Self.tooManyImports(configuration.maxImportsInFlightPerUser)
        }
        let job: ImportJob
        do {
            job = try await receive(request, context, user: user, zone: zone)
        } catch {
            await imports.endUpload(of: user.id)
            throw error
        }
        // The job is recorded: counted with the user's unfinished imports from here.
        await imports.endUpload(of: user.id)
        return EditedResponse(status: .accepted, headers: [.location: "/v1/imports/\(job.id)"], response: job)
    }

    /// Stores the upload and records its job (queued here, or in the shared queue).
    private func receive(
        _ request: Request, _ context: AuthenticatedContext, user: User, zone: TimeZone?
    ) async throws -> ImportJob {
        let limit = configuration.maxUploadBytes
        let id = UUID().uuidString.lowercased()
        let folder = repositories.uploadFolder
        let path = (folder as NSString).appendingPathComponent("\(id).zip")
        // Written with non-blocking file I/O (NIO's file system on its thread pool), never
        // with blocking writes on an event loop or the cooperative pool.
        let received = Locked<Int64>(0)
        let counted = request.body.map { chunk in
            let total = received.withLock { total in
                total += Int64(chunk.readableBytes)
                return total
            }
            guard total <= limit else { throw Self.uploadTooLarge(limit) }
            return chunk
        }
        do {
            try await offload { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try await FileIO().writeFile(contents: counted, path: path, context: context)
        } catch {
            await removeUpload(path)
            if error is Problem { throw error }
            context.logger.error("upload not stored: \(error)")
            throw Problem(.internalServerError, "Internal error", detail: "the server cannot store uploads")
        }
        let size = received.withLock { $0 }
        guard size > 0 else {
            await removeUpload(path)
            throw Problem.badRequest("the body is empty; send the export.zip as the body")
        }
        let job = ImportJob(id: id, state: .queued, uploadBytes: size, createdAt: Date())
        if let queue = repositories.importQueue {
            // Into the database, for whichever server claims it first.
            do {
                // Under the user's lock: no job is queued while this server deletes the user.
                try await repositories.withUser(user.id) {
                    try await queue.enqueue(job, userID: user.id, zone: zone?.identifier ?? "", file: path)
                }
            } catch {
                await removeUpload(path)
                let explained = await repositories.explaining(error, userID: user.id)
                throw explained
            }
            await removeUpload(path)
            imports.ring()
        } else {
            // An upload whose job is not recorded (the user deleted meanwhile, a failing
            // store) is removed at once: nothing would ever import or remove it.
            do {
                try await repositories.withUser(user.id) {
                    try await repositories.imports.saveImport(job, userID: user.id)
                }
            } catch {
                await removeUpload(path)
                let explained = await repositories.explaining(error, userID: user.id)
                throw explained
            }
            imports.start(job, file: path, user: user, zone: zone) { database in
                try await recomputer.computeDirtyDays(userID: user.id, database: database, forImport: true)
            }
        }
        return job
    }

    /// `GET /v1/imports/{id}`: the job, its progress and, once finished, its result.
    func getImport(_ request: Request, _ context: AuthenticatedContext) async throws -> ImportJob {
        let user = try context.require(.read)
        // Ids are lower-case UUIDs; one written in upper case is the same job.
        let id = (context.parameters.get("id") ?? "").lowercased()
        guard let job = try await repositories.imports.importJob(id: id, userID: user.id) else {
            throw Problem(.notFound, "Not found", detail: "no import '\(id)' of yours; POST /v1/imports answers with its id")
        }
        return job
    }

    private func removeUpload(_ path: String) async {
        _ = try? await offload { try FileManager.default.removeItem(atPath: path) }
    }

    /// A 429: the user's imports in flight are at the limit; one may upload again once one
    /// has finished.
    private static func tooManyImports(_ limit: Int) -> Problem {
        var problem = Problem(
            .tooManyRequests, "Too many imports",
            detail: "\(limit) imports of yours are queued, running or being uploaded, the most this server takes "
                + "at once (serve --max-imports-per-user); upload again once one has finished (GET /v1/imports/{id})")
        problem.headers[.retryAfter] = "30"
        return problem
    }

    private static func uploadTooLarge(_ limit: Int64) -> Problem {
        Problem(
            .contentTooLarge, "Upload too large",
            detail: "the export is larger than the \(limit) bytes this server accepts (serve --max-upload-mib)")
    }
}
