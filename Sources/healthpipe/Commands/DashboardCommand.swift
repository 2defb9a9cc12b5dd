import ArgumentParser
import Foundation
import HealthBasics
import HealthDaily
import HealthDashboard
import HealthSQLite
import HealthServer
import Hummingbird

struct Dashboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The dashboard of the local store, served on http://127.0.0.1:PORT (loopback only).",
        discussion: """
            Today's rings and figures, readiness, 7/30/90/365-day trends, sleep stages, workouts and \
            data quality, with the numbers of `healthpipe days`, `sleep` and `readiness`. The page has \
            no script and fetches nothing; ?date=YYYY-MM-DD and ?range=N choose the day and the trend \
            range, and a store whose data ends before today opens on its last day. --print writes the \
            page to standard output instead. See docs/dashboard.md.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var zones: ZoneOptions

    @Option(help: "Port on 127.0.0.1 (the dashboard never listens on another address).")
    var port = 8087

    @OptionGroup var norm: NormOptions

    @Option(help: "The day the page is about, YYYY-MM-DD (default: today, or the last day with data if none is newer).")
    var today: String?

    @Option(help: "Trend range for --print: 7, 30, 90 or 365 days.")
    var range = 30

    @Flag(help: "Write the page to standard output and exit.")
    var print = false

    @Option(help: "With --print: the page of this workout (its id, as `healthpipe workouts` gives it).")
    var workout: String?

    @Option(help: "Maximum heart rate for a workout page's zones, bpm (default: the highest of the year before it).")
    var maxHr: Int?

    @Option(help: "What a workout page's route is coloured by: pace or heart.")
    var colour = "pace"

    func validate() throws {
        try norm.rejectFormerFlag()
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1–65535") }
        if let today, LocalDate(today) == nil { throw ValidationError("--today must be a date YYYY-MM-DD, not '\(today)'") }
        guard DashboardAssembler.Settings.ranges.contains(range) else {
            throw ValidationError("--range must be one of 7, 30, 90, 365")
        }
        if let workout {
            guard print else { throw ValidationError("--workout goes with --print (served, the page is /workouts/<id>)") }
            guard UUID(uuidString: workout) != nil else { throw ValidationError("--workout must be a workout's id (a UUID)") }
        }
        if let maxHr, !(100...250).contains(maxHr) { throw ValidationError("--max-hr must be 100–250") }
        guard ["pace", "heart"].contains(colour) else { throw ValidationError("--colour must be pace or heart") }
    }

    func run() async throws {
        let store = try database.open()
        let settings = settings()
        try await store.withDaysCache(settings.normalization) { cache in
            let page = LocalDashboard(store: store, settings: settings, today: today.flatMap(LocalDate.init), cache: cache)
            if print, let workout, let uuid = UUID(uuidString: workout) {
                guard let html = try await page.workoutHTML(uuid, maximumHeartRate: maxHr.map(Double.init), colour: colour)
                else {
                    printError(
                        "error: no workout with id \(workout.lowercased()) in this store; `healthpipe workouts` lists them")
                    throw ExitCode(2)
                }
                Swift.print(html)
                return
            }
            if print {
                Swift.print(try await page.html(range: range, linked: false))
                return
            }
            let router = Router()
            router.get("/workouts/:id") { request, context -> Response in
                guard LoopbackHost.allows(request.head.authority),
                    let uuid = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
                    let html = try await page.workoutHTML(
                        uuid,
                        maximumHeartRate: request.uri.queryParameters["max_hr"].flatMap { Double(String($0)) }
                            .flatMap { (100...250).contains($0) ? $0 : nil },
                        colour: request.uri.queryParameters["colour"].map(String.init) ?? "pace")
                else {
                    return Response(
                        status: .notFound, headers: .dashboardPage(contentType: "text/plain; charset=utf-8"),
                        body: .init(byteBuffer: ByteBuffer(string: "no such workout\n")))
                }
                return Response(
                    status: .ok, headers: .dashboardPage(contentType: "text/html; charset=utf-8"),
                    body: .init(byteBuffer: ByteBuffer(string: html)))
            }
            router.get("/") { request, _ -> Response in
                // Only loopback names: a rebound DNS name of another site gets nothing.
                guard LoopbackHost.allows(request.head.authority) else {
                    return Response(
                        status: .misdirectedRequest, headers: .dashboardPage(contentType: "text/plain; charset=utf-8"),
                        body: .init(byteBuffer: ByteBuffer(string: "this dashboard answers only http://127.0.0.1:\(port)/\n")))
                }
                // `?range=` and `?date=`, as the server's page takes them.
                let query: DashboardQuery
                do {
                    query = try DashboardQuery(
                        range: request.uri.queryParameters["range"].map { String($0) },
                        date: request.uri.queryParameters["date"].map { String($0) })
                } catch {
                    return Response(
                        status: .badRequest, headers: .dashboardPage(contentType: "text/plain; charset=utf-8"),
                        body: .init(byteBuffer: ByteBuffer(string: "\(error)\n")))
                }
                return Response(
                    status: .ok, headers: .dashboardPage(contentType: "text/html; charset=utf-8"),
                    body: .init(byteBuffer: ByteBuffer(string: try await page.html(range: query.range, date: query.date))))
            }
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "healthpipe"))
            try ListeningPort.requireFree(host: "127.0.0.1", port: port)
            printError("healthpipe dashboard: http://127.0.0.1:\(port)/ (store \(database.path)); Ctrl-C stops it")
            do {
                try await app.runService()
            } catch {
                throw ListeningPort.explained(error, host: "127.0.0.1", port: port)
            }
        }
    }

    private func settings() -> DashboardAssembler.Settings {
        var settings = DashboardAssembler.Settings()
        settings.normalization = zones.configuration()
        settings.normalization.version = norm.version
        return settings
    }
}

/// The page over the local store: assembled at each request, so that it follows imports.
struct LocalDashboard: Sendable {
    let store: HealthDatabase
    let settings: DashboardAssembler.Settings
    let today: LocalDate?
    let cache: DailyMetricsCache

    /// The page about `date` (`?date=`), else `--today`, else today — or the last day with
    /// data when the store holds nothing newer.
    func html(range: Int, date: LocalDate? = nil, linked: Bool = true) async throws -> String {
        var settings = settings
        settings.rangeDays = range
        let data = try await DashboardAssembler(store: store.store, settings: settings, now: { Date() }, daily: cache)
            .assemble(today: date ?? today)
        return DashboardPage(data: data, path: date.map { "/?date=\($0)" } ?? "/", workoutPath: linked ? "/workouts/" : nil)
            .html()
    }

    /// The page of the workout `uuid`; `nil` when the store has none.
    func workoutHTML(_ uuid: UUID, maximumHeartRate: Double?, colour: String) async throws -> String? {
        let assembler = DashboardAssembler(store: store.store, settings: settings, now: { Date() }, daily: cache)
        guard let data = try await assembler.workoutPage(uuid, maximumHeartRate: maximumHeartRate) else { return nil }
        return WorkoutPage(data: data, backPath: "/", colouring: colour).html()
    }
}
