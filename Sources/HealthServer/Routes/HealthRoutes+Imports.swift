import Foundation
import HealthCore
import Hummingbird
import NIOCore

/// `POST /v1/imports` and `GET /v1/imports/{id}`: an Apple Health `export.zip` uploaded,
/// streamed to disk, and imported in the background.
extension HealthRoutes {
    /// Streams the body to `uploads/<id>.zip` (413 past `maxUploadBytes`, checked against
    /// `Content-Length` first and against the bytes received after), then answers 202 with
    /// the job and `Location: /v1/imports/<id>`.
    func postImport(_ request: Request, _ context: HealthRequestContext) async throws -> Response {
        let user = try context.requireUser(.write)
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/zip") || type.hasPrefix("application/octet-stream") else {
            throw Problem(
                .unsupportedMediaType, "Unsupported media type",
                detail: "send the export.zip as the body with Content-Type: application/zip")
        }
        let zone = try dayZone(request)
        let limit = configuration.maxUploadBytes
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit {
            throw Self.uploadTooLarge(limit)
        }
        let id = UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: repositories.uploadFolder, withIntermediateDirectories: true)
        let path = (repositories.uploadFolder as NSString).appendingPathComponent("\(id).zip")
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
        else {
            throw Problem(.internalServerError, "Internal error", detail: "the server cannot store uploads")
        }
        var received: Int64 = 0
        do {
            defer { try? file.close() }
            for try await chunk in request.body {
                received += Int64(chunk.readableBytes)
                guard received <= limit else { throw Self.uploadTooLarge(limit) }
                try file.write(contentsOf: chunk.readableBytesView)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        guard received > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw Problem.badRequest("the body is empty; send the export.zip as the body")
        }
        let job = ImportJob(id: id, state: .queued, uploadBytes: received, createdAt: Date())
        try await repositories.imports.saveImport(job, userID: user.id)
        imports.start(job, file: path, user: user, zone: zone) { span, database in
            try await self.recompute(span, user: user, zone: zone, database: database)
        }
        var response = try json(job)
        response.status = .accepted
        response.headers[.location] = "/v1/imports/\(id)"
        return response
    }

    /// `GET /v1/imports/{id}`: the job, its progress and, once finished, its result.
    func getImport(_ request: Request, _ context: HealthRequestContext) async throws -> Response {
        let user = try context.requireUser(.read)
        let id = context.parameters.get("id") ?? ""
        guard let job = try await repositories.imports.importJob(id: id, userID: user.id) else {
            throw Problem(.notFound, "Not found", detail: "no import '\(id)' of yours; POST /v1/imports answers with its id")
        }
        return try json(job)
    }

    private static func uploadTooLarge(_ limit: Int64) -> Problem {
        Problem(
            .contentTooLarge, "Upload too large",
            detail: "the export is larger than the \(limit) bytes this server accepts (serve --max-upload-mib)")
    }
}
