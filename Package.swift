// swift-tools-version:6.0
import Foundation
import PackageDescription

let package = Package(
    name: "HealthPipeline",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "HealthBasics", targets: ["HealthBasics"]),
        .library(name: "HealthCore", targets: ["HealthCore"]),
        .library(name: "HealthSQLite", targets: ["HealthSQLite"]),
        .library(name: "HealthImportReader", targets: ["HealthImportReader"]),
        .library(name: "HealthImport", targets: ["HealthImport"]),
        .library(name: "HealthMetrics", targets: ["HealthMetrics"]),
        .library(name: "HealthDaily", targets: ["HealthDaily"]),
        .library(name: "HealthReadiness", targets: ["HealthReadiness"]),
        .library(name: "HealthExport", targets: ["HealthExport"]),
        .library(name: "HealthAutoExport", targets: ["HealthAutoExport"]),
        .library(name: "HealthServerRecords", targets: ["HealthServerRecords"]),
        .library(name: "HealthServerStorage", targets: ["HealthServerStorage"]),
        .library(name: "HealthServer", targets: ["HealthServer"]),
        .library(name: "HealthServerHost", targets: ["HealthServerHost"]),
        .library(name: "HealthContext", targets: ["HealthContext"]),
        .library(name: "HealthWeather", targets: ["HealthWeather"]),
        .library(name: "HealthWire", targets: ["HealthWire"]),
        .library(name: "HealthSync", targets: ["HealthSync"]),
        .library(name: "HealthKitCompat", targets: ["HealthKitCompat"]),
        .library(name: "HealthKitQuerying", targets: ["HealthKitQuerying"]),
        .library(name: "HealthDashboard", targets: ["HealthDashboard"]),
        .library(name: "HealthMCP", targets: ["HealthMCP"]),
        .library(name: "HealthPostgres", targets: ["HealthPostgres"]),
        .executable(name: "healthpipe", targets: ["healthpipe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // NIOHTTPTypes: the HTTP parts Hummingbird's channel handlers see (MinimumBodyRate).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // ServiceLifecycle: the server's imports run as a service of its service group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The vocabulary every module shares, defined once: local dates, normalisation versions.
        .target(name: "HealthBasics"),
        // Pure core: data model, units, query protocol, in-memory store. No GRDB, no networking.
        .target(name: "HealthCore", dependencies: ["HealthBasics"]),
        // SQLite store on GRDB.
        .target(
            name: "HealthSQLite",
            dependencies: [
                "HealthCore", "CSQLiteOptions", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // SQLite's process-wide options, set before its first use (C: `sqlite3_config` is variadic).
        .target(name: "CSQLiteOptions", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The health store on PostgreSQL, many users in one database (docs/store.md §PostgreSQL),
        // and the process's connection pool that the server's records share.
        .target(
            name: "HealthPostgres",
            dependencies: [
                "HealthCore", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Apple Health export reader: streaming XML, zip entries, GPX, ECG CSV → HealthRecords.
        // Knows nothing of storage: no GRDB, no HealthSQLite (scripts/check-boundaries).
        // ZIPFoundation only for its zlib module (CZlib): zips are read by our ZipArchive.
        .target(
            name: "HealthImportReader",
            dependencies: ["HealthCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // The import: the reader feeding a store's writer (SQLite or PostgreSQL), one transaction,
        // two threads.
        .target(name: "HealthImport", dependencies: ["HealthCore", "HealthImportReader", "HealthSQLite", "HealthPostgres"]),
        // The per-day payload (`NormalizedDailyMetrics`): plain values, Foundation only.
        .target(name: "HealthMetrics", dependencies: ["HealthBasics"]),
        // Daily normalisation (norm_v1, norm_v2): pure rules over the query protocol.
        .target(name: "HealthDaily", dependencies: ["HealthCore", "HealthMetrics"]),
        // Readiness from daily metrics only: it cannot see samples or storage, by construction.
        .target(name: "HealthReadiness", dependencies: ["HealthMetrics"]),
        // The dashboard: its data from the query protocol, its HTML and SVG drawn in Swift.
        // No storage, no HTTP (scripts/check-boundaries).
        .target(name: "HealthDashboard", dependencies: ["HealthCore", "HealthMetrics", "HealthDaily", "HealthReadiness"]),
        // The coach's MCP tools, resources and prompts over one person's data (the MCP Swift SDK).
        // No storage, no HTTP server (scripts/check-boundaries).
        .target(
            name: "HealthMCP",
            dependencies: [
                "HealthCore", "HealthMetrics", "HealthDaily", "HealthReadiness", "HealthContext",
                .product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log"),
            ]),
        // CSV export: metric registry, streaming writer, unit preferences — over `SampleScanning`.
        .target(name: "HealthExport", dependencies: ["HealthCore", "HealthMetrics"]),
        // Health Auto Export JSON → HealthRecords (pure).
        .target(name: "HealthAutoExport", dependencies: ["HealthCore"]),
        // What travels between a device and the server: samples, change feeds, sealed sync
        // batches (swift-crypto; ZIPFoundation only for its zlib module, CZlib).
        .target(
            name: "HealthWire",
            dependencies: [
                "HealthBasics", "HealthCore", "HealthMetrics", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The sync client: change feed → outbox (its own SQLite file) → sealed batches over a
        // transport, with retry, dead letters and injected clock, randomness and conditions.
        .target(
            name: "HealthSync",
            dependencies: [
                "HealthCore", "HealthWire", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The server's own records as a port: users and tokens, consent and sessions, days,
        // idempotency keys, import jobs, devices; and each user's health store as the server
        // writes it. Protocols and values only: no database (scripts/check-boundaries).
        .target(
            name: "HealthServerRecords",
            dependencies: [
                "HealthCore", "HealthMetrics", "HealthWire", "HealthImport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The port's two adapters — the server's records and users' stores on SQLite and on
        // PostgreSQL — and `ServerStorage.open(ServerStoreLocation)`, where the choice is made once.
        .target(
            name: "HealthServerStorage",
            dependencies: [
                "HealthCore", "HealthMetrics", "HealthWire", "HealthImport", "HealthServerRecords", "HealthSQLite",
                "HealthPostgres", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The backend: Hummingbird routes over the server's records port (HealthServerRecords):
        // no database of its own (scripts/check-boundaries).
        .target(
            name: "HealthServer",
            dependencies: [
                "HealthCore", "HealthMetrics", "HealthReadiness", "HealthDaily", "HealthImport", "HealthServerRecords",
                "HealthImportReader", "HealthAutoExport", "HealthExport", "HealthContext", "HealthWeather", "HealthWire",
                "HealthDashboard", "HealthMCP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The OpenAPI document, compiled in (no bundle to ship beside the binary).
            resources: [.embedInCode("Resources/openapi.json")]
        ),
        // The coach context: snapshot, assembler, providers over the query protocol and app data.
        .target(name: "HealthContext", dependencies: ["HealthCore", "HealthDaily"]),
        // Weather over HTTP (Open-Meteo, async-http-client): the only module that does networking.
        .target(
            name: "HealthWeather",
            dependencies: [
                "HealthContext", "HealthCore", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // HealthKit's API: HealthKit itself on Apple platforms; elsewhere the same API over our
        // store (docs/healthkit-compat.md). Only there does it need the SQLite store (the file
        // `HKHealthStore()` opens): where HealthKit exists, it links the port alone, no GRDB.
        .target(
            name: "HealthKitCompat",
            dependencies: [
                "HealthCore",
                .target(name: "HealthSQLite", condition: .when(platforms: [.linux, .windows, .android, .openbsd])),
            ]
        ),
        // Our query protocols written against HealthKit's API: the pipeline on real HealthKit.
        .target(name: "HealthKitQuerying", dependencies: ["HealthCore", "HealthKitCompat"]),
        // Deterministic synthetic export generator with ground truth.
        .target(
            name: "HealthSynth",
            dependencies: [
                "HealthCore", "HealthDaily", "HealthMetrics", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The composition root: the server's storage opened, the chores of a start, the
        // application built (the CLI, the benchmarks and the tests' harness build it here).
        .target(
            name: "HealthServerHost",
            dependencies: [
                "HealthServer", "HealthServerRecords", "HealthServerStorage",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "healthpipe",
            dependencies: [
                "HealthBasics", "HealthCore", "HealthSQLite", "HealthImport", "HealthImportReader", "HealthSynth",
                "HealthDaily", "HealthMetrics", "HealthReadiness",
                "HealthExport", "HealthServer", "HealthContext", "HealthWeather", "HealthWire", "HealthSync",
                "HealthKitCompat", "HealthDashboard", "HealthMCP", "HealthPostgres", "HealthServerRecords",
                "HealthServerStorage", "HealthServerHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"), .product(name: "MCP", package: "swift-sdk"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(name: "HealthCoreTests", dependencies: ["HealthCore"]),
        .testTarget(
            name: "HealthDailyTests",
            dependencies: [
                "HealthCore", "HealthDaily", "HealthMetrics", "HealthSQLite", "HealthImport", "HealthSynth", "HealthAutoExport",
                "HealthTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "HealthAutoExportTests", dependencies: ["HealthAutoExport", "HealthCore"]),
        .testTarget(
            name: "HealthServerTests",
            dependencies: [
                "HealthServer", "HealthMetrics", "HealthReadiness", "HealthAutoExport", "HealthCore", "HealthDaily",
                "HealthImport", "HealthImportReader", "HealthSQLite", "HealthSynth", "HealthWire", "HealthSync",
                "HealthPostgres", "HealthDashboard", "HealthTestSupport", "HealthServerRecords", "HealthServerStorage",
                "HealthServerHost", "HealthExport", "HealthKitCompat", "HealthKitQuerying",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HealthExportTests",
            dependencies: [
                "HealthExport", "HealthMetrics", "HealthCore", "HealthDaily", "HealthSQLite", "HealthImport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "HealthReadinessTests",
            dependencies: [
                "HealthReadiness", "HealthMetrics", "HealthCore", "HealthDaily", "HealthSQLite", "HealthImport", "HealthSynth",
                "HealthTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "HealthContextTests",
            dependencies: [
                "HealthCore", "HealthDaily", "HealthSQLite", "HealthContext", "HealthWeather", "HealthSynth",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "HealthSyncTests",
            dependencies: [
                "HealthSync", "HealthWire", "HealthCore", "HealthSQLite", "HealthServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Stores the test targets share (generated exports, imported).
        .target(
            name: "HealthTestSupport",
            dependencies: ["HealthCore", "HealthSQLite", "HealthImport", "HealthSynth", "HealthPostgres"],
            path: "Tests/HealthTestSupport"),
        .testTarget(
            name: "HealthMCPTests",
            dependencies: [
                "HealthMCP", "HealthCore", "HealthDaily", "HealthMetrics", "HealthReadiness", "HealthSQLite", "HealthTestSupport",
                "HealthWeather", .product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "HealthDashboardTests",
            dependencies: [
                "HealthDashboard", "HealthCore", "HealthDaily", "HealthMetrics", "HealthReadiness", "HealthSQLite",
                "HealthImport", "HealthSynth", "HealthTestSupport",
            ]
        ),
        .testTarget(
            name: "HealthKitCompatTests",
            dependencies: [
                "HealthKitCompat", "HealthKitQuerying", "HealthCore", "HealthSQLite", "HealthImport", "HealthSynth",
                "HealthDaily",
            ]
        ),
        .testTarget(
            name: "HealthImportTests",
            dependencies: [
                "HealthBasics", "HealthCore", "HealthSQLite", "HealthImport", "HealthImportReader", "HealthSynth",
                "HealthPostgres", "HealthTestSupport", "HealthDaily", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz targets (Fuzz/README.md): libFuzzer entry points, built only by `scripts/fuzz`
// (HEALTHPIPE_FUZZ=1, -sanitize=fuzzer,address), never by `swift build` or `swift test`.
if ProcessInfo.processInfo.environment["HEALTHPIPE_FUZZ"] == "1" {
    // HTTPTypes for FuzzJSONEndpoints' `HTTPField.Name` (Hummingbird re-exports only a few of its types).
    package.dependencies.append(.package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"))
    package.targets.append(.target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"))
    for (name, module) in [
        ("FuzzExportXML", "HealthImportReader"), ("FuzzZip", "HealthImportReader"), ("FuzzGPX", "HealthImportReader"),
        ("FuzzECG", "HealthImportReader"), ("FuzzHealthAutoExport", "HealthAutoExport"),
    ] {
        package.targets.append(
            .executableTarget(
                name: name, dependencies: ["FuzzSupport", .target(name: module)], path: "Fuzz/\(name)",
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
    // The server's JSON endpoints, end to end in memory through the application's responder.
    package.targets.append(
        .executableTarget(
            name: "FuzzJSONEndpoints",
            dependencies: [
                "FuzzSupport", "HealthServer", "HealthWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/FuzzJSONEndpoints", swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}
