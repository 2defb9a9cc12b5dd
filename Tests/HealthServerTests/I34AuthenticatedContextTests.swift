import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Issue 34 §3: handlers behind the bearer middleware take an `AuthenticatedContext`, whose
/// user is never missing (before: `user: User?` and a `requireUser` in every handler).
@Suite struct I34AuthenticatedContextTests {
    /// A route in an authenticated group reached without a user (no bearer middleware in
    /// front) is a 401 in problem+json, not a handler run with no user.
    @Test func aGroupWithoutTheBearerMiddlewareAnswers401() async throws {
        let router = Router(context: HealthRequestContext.self)
        router.add(middleware: ProblemMiddleware(routes: []))
        let reached = P1P4PostgresNamesTests.Counter()
        router.group("v1").group(context: AuthenticatedContext.self).get("me") { _, context -> String in
            await reached.increment()
            return context.user.name
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/v1/me", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
        #expect(await reached.value == 0)
    }
}
