import Foundation
import HealthCore
import HealthDaily
import HealthMCP
import HealthWeather
import Hummingbird
import MCP
import NIOCore

/// `POST /mcp`: the coach's MCP server (docs/mcp.md) over streamable HTTP, stateless, with
/// JSON answers: one server per request, over the bearer token's user, limited to what the
/// token may read. A tool call or resource that needs a kind of data the token may not read
/// is a 403 (as on `/v1`), before the MCP server sees it.
extension HealthRoutes {
    /// Mounted at `/mcp`, beside `/v1`.
    var mcpRoutes: RouteCollection<AuthenticatedContext> { Self.collection().post(use: postMCP) }

    func postMCP(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let access = try await readAccess(context)
        if access.readable.isEmpty { try access.require(Set(HealthDataCategory.allCases)) }
        let body: Data
        do {
            body = Data(try await request.body.collect(upTo: configuration.maxBodyBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw Problem(
                .contentTooLarge, "Body too large", detail: "an MCP message is at most \(configuration.maxBodyBytes) bytes")
        }
        // What the SDK would drop or answer under a random id is answered as stdio answers it.
        if let refusal = JSONRPCRefusal.ofBatch(body) ?? JSONRPCRefusal.of(body) {
            return Response(
                status: .badRequest, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: refusal)))
        }
        // The gate below and the MCP SDK must read the same message: no key twice.
        try await HealthRequestDecoder.refuseUnsafeJSON(body)
        try access.require(Self.kindsNeeded(byMCPMessage: body))
        let user = access.user
        // Under the user's lock: a tool may write (the daily log), and a deletion of the user
        // waits for the answer.
        return try await repositories.writing(user.id) { database in
            // Days left dirty by a failure after a commit are computed before any is read.
            do {
                _ = try await recomputer.computeDirtyDays(userID: user.id, database: database)
            } catch {
                imports.logger.error(
                    "dirty days not computed before an MCP read; the stored days are served",
                    metadata: ["user": "\(user.id)", "error.type": "\(type(of: error))"])
            }
            var settings = DailyNormalizer.Configuration()
            settings.homeZone = try await dayZone(request, userID: user.id)
            var source = CoachSource(
                store: database.queries, appData: database.appData,
                weather: OpenMeteoClient(configuration: configuration.weather),
                daily: StoredDailyMetrics(
                    repository: repositories.dailyMetrics, userID: user.id, version: settings.version,
                    zone: settings.homeZone),
                normalization: settings, withheld: Set(HealthDataCategory.allCases).subtracting(access.readable),
                now: configuration.clock)
            source.providerTimeout = configuration.snapshotProviderTimeout
            let tools = CoachTools(source: source)
            let server = await CoachServer.make(tools)
            // Tokens, not cookies, authenticate here: a rebound DNS name gains nothing, so the
            // origin check is the bearer middleware's job, not the transport's.
            let transport = StatelessHTTPServerTransport(
                validationPipeline: StandardValidationPipeline(validators: [
                    AcceptHeaderValidator(mode: .jsonOnly), ContentTypeValidator(), ProtocolVersionValidator(),
                ]))
            try await server.start(transport: transport)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            // Any type (curl's default `*/*`), or none said, includes the JSON answered.
            let accept = request.headers[.accept] ?? "*/*"
            if accept.contains("*/*") || accept.contains("application/*") {
                headers[HTTPFields.Element.Name.accept.canonicalName] = "application/json"
            }
            let answer = await transport.handleRequest(
                MCP.HTTPRequest(method: "POST", headers: headers, body: body, path: "/mcp"))
            await server.stop()
            var fields: HTTPFields = [:]
            for (name, value) in answer.headers {
                if let field = HTTPFields.Element.Name(name) { fields[field] = value }
            }
            return Response(
                status: .init(code: answer.statusCode), headers: fields,
                body: .init(byteBuffer: ByteBuffer(bytes: answer.bodyData ?? Data())))
        }
    }

    /// The kinds of data an MCP message needs all of: a tool call's or a resource's. Other
    /// messages (initialize, lists, prompts) need none; a bundle tool leaves out what the
    /// token may not read instead.
    static func kindsNeeded(byMCPMessage body: Data) -> Set<HealthDataCategory> {
        guard let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let method = message["method"] as? String, let params = message["params"] as? [String: Any]
        else { return [] }
        switch method {
        case "tools/call":
            guard let name = params["name"] as? String else { return [] }
            let arguments = params["arguments"] as? [String: Any]
            return CoachTools.kindsNeeded(
                tool: name, metric: arguments?["metric"] as? String, type: arguments?["type"] as? String)
        case "resources/read":
            let readiness = (params["uri"] as? String) == "health://readiness/today"
            return readiness ? CoachTools.kindsNeeded(tool: "get_readiness", metric: nil, type: nil) : []
        default:
            return []
        }
    }
}
