import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// `/openapi.json` documents exactly the routes the router has, and every reference in it
/// resolves.
@Suite struct OpenAPITests {
    static func document(_ harness: ServerHarness) async throws -> [String: Any] {
        try await harness.app.test(.router) { client in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                return ServerHarness.json(response.body)
            }
        }
    }

    /// `METHOD /path` of every operation in the document.
    static func operations(_ document: [String: Any]) -> Set<String> {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return Set(paths.flatMap { path, item in item.keys.map { "\($0.uppercased()) \(path)" } })
    }

    @Test func theDocumentListsExactlyTheRoutes() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        let document = try await Self.document(harness)
        #expect(document["openapi"] as? String == "3.1.0")
        let documented = Self.operations(document)
        #expect(documented.count == 27)
        let routes = serverRoutes(configuration: ServerConfiguration(), repositories: harness.repositories)
        #expect(documented == Set(routes))
        #expect(routes.count == Set(routes).count)
    }

    /// Each documented operation reaches a handler (whatever it answers, it is not the
    /// router's "no route"), and an undocumented one does not.
    @Test func everyDocumentedOperationReachesAHandler() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        let documented = Self.operations(try await Self.document(harness))
        try await harness.app.test(.router) { client in
            for operation in documented.sorted() + ["DELETE /v1/daily-metrics", "GET /v1/users"] {
                let parts = operation.split(separator: " ")
                let path = parts[1].replacingOccurrences(of: "{id}", with: "nothing-here")
                let (status, detail) = try await client.execute(
                    uri: path, method: HTTPRequest.Method(String(parts[0]))!, headers: harness.headers("alice")
                ) { ($0.status, ServerHarness.json($0.body)["detail"] as? String ?? "") }
                // Not documented: no route (404), or 405 where the path has other methods.
                let routed = !detail.hasPrefix("no route") && status != .methodNotAllowed
                #expect(routed == documented.contains(operation), "\(operation): \(detail)")
            }
        }
    }

    @Test func everyReferenceResolvesAndEveryOperationAnswersSomething() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        let document = try await Self.document(harness)
        let text = String(
            decoding: try JSONSerialization.data(withJSONObject: document, options: .withoutEscapingSlashes), as: UTF8.self)
        let references = text.matches(of: /"\$ref":"#\/([^"]+)"/).map { String($0.1) }
        #expect(!references.isEmpty)
        for reference in Set(references) {
            var node: Any? = document
            for key in reference.split(separator: "/") { node = (node as? [String: Any])?[String(key)] }
            #expect(node != nil, "unresolved $ref #/\(reference)")
        }
        let paths = document["paths"] as? [String: [String: [String: Any]]] ?? [:]
        for (path, item) in paths {
            for (method, operation) in item {
                #expect(operation["operationId"] is String, "\(method) \(path)")
                #expect(!((operation["responses"] as? [String: Any]) ?? [:]).isEmpty, "\(method) \(path)")
                // Probes are open; everything under /v1 needs the bearer token.
                let open = (operation["security"] as? [Any])?.isEmpty == true
                #expect(open == !path.hasPrefix("/v1/"), "\(method) \(path)")
            }
        }
    }
}
