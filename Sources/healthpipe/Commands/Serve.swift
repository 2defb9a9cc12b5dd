import ArgumentParser
import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import Hummingbird

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP API: ingest daily metrics, serve them and readiness (docs/api.md).",
        discussion: "Stops gracefully on SIGINT or SIGTERM: requests in flight finish first.")

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @OptionGroup var database: ServerDatabaseOptions

    @Option(help: "Requests a minute per token, counted by each server (several servers on one PostgreSQL each allow it).")
    var rateLimit = 1200

    @Option(
        name: .long,
        help:
            "Wrong tokens a minute from one address (at /login, /v1 and /mcp together) before it gets 429s until the minute ends."
    )
    var failedSignInLimit = 30

    @Option(help: "Largest JSON body accepted, in MiB.")
    var maxBodyMib = 4

    @Option(help: "Largest export.zip accepted by POST /v1/imports, in MiB.")
    var maxUploadMib = 4096

    @Option(help: "Imports a user may have queued, running or uploading at once (one more: 429).")
    var maxImportsPerUser = 2

    @Option(help: "Imports run at once, each of another user (a user's own run one after another).")
    var importConcurrency = 2

    @Option(
        help: """
            At SIGINT/SIGTERM, seconds the imports under way may take to end; an import still \
            running then ends with the process, and its job is failed at the next start (or, \
            with --postgres, claimed again by another server).
            """)
    var importShutdownGrace: Double = 30

    @Option(help: "Folder of each user's samples and of uploads (default: the folder of --server-db).")
    var dataDir: String?

    @Option(help: "The Open-Meteo base URL for /v1/snapshot's weather (asked only when a request gives lat and lon).")
    var weatherURL = "https://api.open-meteo.com"

    @Option(help: "PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCert: String?

    @Option(help: "PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(help: "The origin clients reach the server at behind a TLS-terminating proxy, e.g. https://health.example.com.")
    var publicURL: String?

    @Option(help: "Hours a dashboard sign-in lasts.")
    var sessionHours = 12.0

    @Option(help: "Days the dashboard waits before asking again about data the person declined.")
    var repromptDays = 7.0

    @OptionGroup var serverKey: ServerKeyOptions

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1–65535") }
        guard rateLimit > 0, maxBodyMib > 0, maxUploadMib > 0 else {
            throw ValidationError("--rate-limit, --max-body-mib and --max-upload-mib must be positive")
        }
        guard maxImportsPerUser > 0, importConcurrency > 0 else {
            throw ValidationError("--max-imports-per-user and --import-concurrency must be positive")
        }
        guard importShutdownGrace.isFinite, (0...86_400).contains(importShutdownGrace) else {
            throw ValidationError("--import-shutdown-grace must be 0 to 86400 seconds")
        }
        guard URL(string: weatherURL)?.scheme != nil else { throw ValidationError("--weather-url must be an absolute URL") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("give --tls-cert and --tls-key together") }
        do {
            _ = try publicURL.map(PublicURL.parse)
        } catch {
            throw ValidationError("\(error)")
        }
        guard sessionHours > 0, sessionHours <= 24 * 30 else {
            throw ValidationError("--session-hours must be above 0, at most 720")
        }
        guard repromptDays >= 0 else { throw ValidationError("--reprompt-days must be 0 or more") }
    }

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.requestsPerMinute = rateLimit
        configuration.failedSignInsPerMinute = max(1, failedSignInLimit)
        configuration.maxBodyBytes = maxBodyMib << 20
        configuration.maxUploadBytes = Int64(maxUploadMib) << 20
        configuration.maxImportsInFlightPerUser = maxImportsPerUser
        configuration.importConcurrency = importConcurrency
        configuration.importShutdownGrace = importShutdownGrace
        configuration.weather.baseURL = URL(string: weatherURL)!
        configuration.sessionLifetime = sessionHours * 3600
        configuration.consentRepromptInterval = repromptDays * 86400
        configuration.publicURL = try publicURL.map(PublicURL.parse)
        if let tlsCert, let tlsKey {
            configuration.tls = try ServerTLS.configuration(certificate: tlsCert, key: tlsKey)
        }
        let folder = dataDir ?? (database.path as NSString).deletingLastPathComponent
        // Folders and files made before the tool kept them private (umask 077) are made so.
        try DataFolderPermissions.restrict(folder: folder, files: database.postgresURL == nil ? [database.path] : [])
        // Held until the server has stopped (the kernel releases them if it dies).
        let locks = try database.lockSQLite(dataFolder: folder) { "\($0)" }
        defer { withExtendedLifetime(locks) {} }
        // Before anything claims to listen: a taken port, and plain HTTP to other machines.
        try ListeningPort.requireFree(host: host, port: port)
        ListeningPort.warnIfPlain(host: host, tls: configuration.tls != nil, publicURL: publicURL)
        // Device keys are sealed at rest under the server key, kept outside the database.
        let key = try serverKey.load(dataFolder: folder)
        var server = try await database.openHost(dataFolder: folder)
        try await ServerKeyOptions.sealDeviceKeys(of: &server, under: key)
        let chores = try await server.prepareStart()
        if chores.interruptedImports > 0 { printError("Marked \(chores.interruptedImports) unfinished import(s) failed.") }
        if chores.swept != ServerMaintenance.Swept() {
            printError(
                "Removed \(chores.swept.uploads) upload(s) of no import and the stores of \(chores.swept.stores) deleted user(s)."
            )
        }
        let app = try server.application(configuration: configuration)
        let scheme = configuration.tls == nil ? "http" : "https"
        printError("healthpipe serve: \(scheme)://\(host):\(port) (store \(database.described), data \(folder))")
        let origin = configuration.publicOrigin ?? "\(scheme)://\(host):\(port)"
        printError("dashboard: \(origin)/dashboard (sign in with a user's token)")
        do {
            try await app.runService()
        } catch {
            await server.close()
            throw ListeningPort.explained(error, host: host, port: port)
        }
        await server.close()
    }
}
