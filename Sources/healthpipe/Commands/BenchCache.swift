import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite

/// `healthpipe bench cache`: the table of seed 003 §5 — heart rate (100 samples), daily
/// steps, 7 days of sleep, each asked of the store and of the query cache in front of it.
struct BenchCache: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Time three questions with and without the query cache (seed 003 §5's table).",
        discussion: """
            On the store's last data: the last 100 heart-rate samples, one day's step statistics and \
            seven days of sleep. Each is asked of the store itself and of a query cache (the default \
            configuration: 5 minutes, throttled to a fetch a type a minute) after one fetch has filled it; \
            every figure is the median of --runs. The cached answers are checked equal to the store's. \
            Make a store with `healthpipe synth --days 60 --out year.zip` and `healthpipe import`.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Times each question is asked, each way.")
    var runs = 200

    func run() async throws {
        let store = try database.open().store
        let spans = Dictionary(uniqueKeysWithValues: try await store.sampleSpans().map { ($0.type, $0) })
        guard let heart = spans[.heartRate], let steps = spans[.stepCount], let sleep = spans[.sleepAnalysis] else {
            throw ValidationError("the store needs heart rate, steps and sleep (e.g. from `healthpipe synth`)")
        }
        let lastHundred = try await store.samples(
            of: .heartRate, overlapping: DateInterval(start: heart.last.addingTimeInterval(-86_400), end: heart.last)
        ).suffix(100)
        guard let firstOfHundred = lastHundred.first, lastHundred.count == 100 else {
            throw ValidationError("the store's last day has fewer than 100 heart-rate samples")
        }
        let unit = try HealthUnit(parsing: "count")
        let cache = CachingHealthQuerying(store: store, configuration: .standard)
        let rows: [(String, Duration, Duration)] = [
            try await time("Heart rate (100 samples)", cache: cache, store: store) {
                try await $0.samples(of: .heartRate, overlapping: DateInterval(start: firstOfHundred.start, end: heart.last))
            },
            try await time("Steps (daily)", cache: cache, store: store) {
                try await $0.statistics(
                    of: .stepCount, over: DateInterval(start: steps.last.addingTimeInterval(-86_400), end: steps.last),
                    unit: unit)
            },
            try await time("Sleep (7 days)", cache: cache, store: store) {
                try await $0.samples(
                    of: .sleepAnalysis,
                    overlapping: DateInterval(start: sleep.last.addingTimeInterval(-7 * 86_400), end: sleep.last))
            },
        ]
        print("Store: \(database.path); median of \(runs) runs each")
        print("| Question | No cache | With cache | Faster |")
        print("|---|---|---|---|")
        for (name, uncached, cached) in rows {
            let (a, b) = (Self.milliseconds(uncached), Self.milliseconds(cached))
            print(String(format: "| %@ | %.3f ms | %.4f ms | %.1f%% (%.0f×) |", name, a, b, 100 * (1 - b / a), a / b))
        }
        let statistics = cache.statistics
        print(
            "Cache: \(statistics.hits) hits, \(statistics.misses) misses, \(statistics.throttledHits) throttled hits, "
                + String(format: "hit rate %.1f%%", statistics.hitRate * 100))
    }

    /// The median time of `question` asked of the store and of the cache (after one fetch),
    /// checking the answers equal.
    private func time<Answer: Equatable>(
        _ name: String, cache: CachingHealthQuerying, store: any HealthQuerying,
        _ question: (any HealthQuerying) async throws -> Answer
    ) async throws -> (String, Duration, Duration) {
        let clock = ContinuousClock()
        let truth = try await question(store)
        guard try await question(cache) == truth else { throw ValidationError("the cached answer differs: \(name)") }
        var uncached: [Duration] = []
        var cached: [Duration] = []
        for _ in 0..<max(1, runs) {
            uncached.append(try await clock.measure { _ = try await question(store) })
            cached.append(try await clock.measure { _ = try await question(cache) })
        }
        return (name, uncached.sorted()[uncached.count / 2], cached.sorted()[cached.count / 2])
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
