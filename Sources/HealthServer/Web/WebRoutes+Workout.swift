import Foundation
import HealthCore
import HealthDashboard
import Hummingbird

extension WebRoutes {
    /// `GET /dashboard/workouts/{id}[?max_hr=&colour=pace|heart]`: one workout's page for the
    /// signed-in owner, with what they allowed on the consent page (docs/dashboard.md). Another
    /// user's workout, or none, is a 404.
    func workoutPage(_ request: Request, _ context: some RequestContext) async throws -> Response {
        guard let session = try await session(request) else { return redirect("/login") }
        let user = session.user
        guard let consent = try await repositories.web.consent(userID: user.id) else { return redirect("/consent") }
        guard let text = context.parameters.get("id"), let uuid = UUID(uuidString: text) else {
            throw Problem.badRequest("a workout's id is a UUID")
        }
        let query = request.uri.queryParameters
        let maximum = try query["max_hr"].map { text -> Double in
            guard let value = Double(String(text)), (100...250).contains(value) else {
                throw Problem.badRequest("max_hr must be a heart rate of 100–250 bpm")
            }
            return value
        }
        let colour = query["colour"].map(String.init) ?? "pace"
        guard ["pace", "heart"].contains(colour) else { throw Problem.badRequest("colour must be pace or heart") }
        var settings = DashboardAssembler.Settings()
        settings.withheld = Set(HealthDataCategory.allCases).subtracting(user.dashboardCategories(consent: consent))
        let database = try await repositories.readableStore(user.id)
        settings.normalization.homeZone = try await userZone(
            user.id, around: LocalDate(configuration.clock(), in: try await repositories.homeZone(of: user.id)))
        guard
            let data = try await DashboardAssembler(store: database.queries, settings: settings, now: configuration.clock)
                .workoutPage(uuid, maximumHeartRate: maximum)
        else {
            throw Problem(.notFound, "Not found", detail: "no such workout")
        }
        let html = WorkoutPage(
            data: data, backPath: "/dashboard", colouring: colour,
            headerExtra: AccessPages.signOut(name: user.name, csrf: session.csrf)
        ).html()
        return page(html)
    }
}
