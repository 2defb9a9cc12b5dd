import Foundation
import HealthCore
import HealthImport
import HealthServer
import HealthServerRecords
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 35 §4: the server's page of a workout, `/dashboard/workouts/{id}`, for the signed-in
/// owner with what they allowed; the dashboard links each workout to it.
@Suite struct I35WorkoutWebPageTests {
    @Test(arguments: ServerBackend.enabled) func theWalksPageForItsOwnerOnly(_ backend: ServerBackend) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        let uuid = try await I35WorkoutRouteTests.walk(harness)
        let path = "/dashboard/workouts/\(uuid.uuidString.lowercased())"
        try await harness.app.test(.router) { client in
            let anonymous = Browser(client)
            #expect(try await anonymous.get(path).location == "/login")

            let alice = Browser(client)
            try await alice.signIn(token: harness.tokens["alice"]!, allow: DashboardWebTests.all)
            let page = try await alice.get(path)
            #expect(page.status == .ok)
            #expect(page.body.contains("<h1>Walking, Mon 24 Feb 2020, 09:44</h1>") && page.body.contains("route-map"))
            #expect(!page.body.contains("NaN") && page.body.contains("href=\"/dashboard\""))
            #expect(try await alice.get("/dashboard/workouts/\(UUID().uuidString)").status == .notFound)
            #expect(try await alice.get("/dashboard/workouts/not-a-uuid").status == .badRequest)
            #expect(try await alice.get(path + "?max_hr=20").status == .badRequest)
            let dashboard = try await alice.get("/dashboard?date=2020-02-24")
            #expect(dashboard.body.contains("href=\"\(path)\""))

            // Bob cannot open Alice's workout: it is not in his store.
            let bob = Browser(client)
            try await bob.signIn(token: harness.tokens["bob"]!, allow: DashboardWebTests.all)
            #expect(try await bob.get(path).status == .notFound)

            // Activity denied on the consent page: the page without the route, saying why.
            let careful = Browser(client)
            try await careful.signIn(
                token: harness.tokens["alice"]!, allow: DashboardWebTests.all.subtracting([.activity]), deny: [.activity])
            let hidden = try await careful.get(path)
            #expect(hidden.status == .ok && !hidden.body.contains("route-map") && hidden.body.contains("The route: not shown"))
        }
    }
}
