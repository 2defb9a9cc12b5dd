#if !canImport(HealthKit)
    import ArgumentParser
    import Foundation
    import HealthKitCompat
    import HealthSQLite
    import HealthSynth

    struct BenchHealthKit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "healthkit",
            abstract: "Time HealthKitCompat's HKStatisticsCollectionQuery: daily step sums over a year of a multi-year store.",
            discussion: """
                Without --db it generates a synthetic export of --years years (seed 2026, starting \
                2020-01-01; not timed) and imports it into --dir, once. Then, --runs times, it opens \
                the store with HKHealthStore(contentsOf:) and times one HKStatisticsCollectionQuery \
                (cumulative sum, daily buckets anchored at midnight in --tz) over the last whole \
                calendar year in the store, from execute until the initial results handler has run \
                and every day's sum has been read with enumerateStatistics.
                """)

        @Option(help: "A store to query (default: generate one in --dir).")
        var db: String?

        @Option(help: "Years of data in the generated store.")
        var years = 5

        @Option(help: "Timed queries.")
        var runs = 5

        @Option(help: "Read every date and local time in this IANA zone: the days' boundaries.")
        var tz = "UTC"

        @Option(help: "Folder for the generated export and store.")
        var dir: String = NSTemporaryDirectory() + "healthpipe-bench"

        func validate() throws {
            guard (1...30).contains(years) else { throw ValidationError("--years must be 1…30") }
            guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
            guard TimeZone(identifier: tz) != nil else { throw ValidationError("--tz: unknown IANA zone '\(tz)'") }
        }

        func run() async throws {
            let path = try db ?? generatedStore()
            let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: tz)!
            guard let span = try await HealthDatabase(path: path).store.storedSpan(),
                let year = lastWholeYear(in: span, calendar: calendar)
            else { throw ValidationError("\(path) holds no whole calendar year of samples") }
            print(
                String(
                    format: "Store: %@ (%.1f MB), samples from %@ to %@", path, Double(size) / 1e6,
                    span.start.formatted(.iso8601), span.end.formatted(.iso8601)))
            var times: [Double] = []
            for run in 1...runs {
                let healthStore = try HKHealthStore(contentsOf: URL(fileURLWithPath: path))
                try await healthStore.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                let started = DispatchTime.now().uptimeNanoseconds
                let sums = try await dailyStepSums(healthStore, year)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                times.append(seconds)
                print(
                    String(
                        format: "run %d: %.3f s, %d daily buckets, %d with steps, %.0f steps in all", run, seconds,
                        sums.count, sums.filter { $0 != nil }.count, sums.compactMap { $0 }.reduce(0, +)))
            }
            let sorted = times.sorted()
            print(
                String(
                    format: "HKStatisticsCollectionQuery, daily step sums over %@: median %.3f s, best %.3f s, worst %.3f s",
                    yearText(year, calendar), sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1]))
        }

        /// The daily step sums of `year`, one per day (`nil` where there are no steps), by the
        /// query an iOS app would write.
        private func dailyStepSums(_ healthStore: HKHealthStore, _ year: DateInterval) async throws -> [Double?] {
            let steps = HKQuantityType(.stepCount)
            let predicate = HKQuery.predicateForSamples(withStart: year.start, end: year.end, options: .strictStartDate)
            return try await withCheckedThrowingContinuation { continuation in
                let query = HKStatisticsCollectionQuery(
                    quantityType: steps, quantitySamplePredicate: predicate, options: .cumulativeSum,
                    anchorDate: year.start, intervalComponents: DateComponents(day: 1))
                query.initialResultsHandler = { _, collection, error in
                    guard let collection else {
                        continuation.resume(throwing: error ?? ValidationError("no statistics"))
                        return
                    }
                    var sums: [Double?] = []
                    // Inclusive of the bucket holding `to`, as in HealthKit: stop a second short.
                    collection.enumerateStatistics(from: year.start, to: year.end.addingTimeInterval(-1)) { statistics, _ in
                        sums.append(statistics.sumQuantity()?.doubleValue(for: .count()))
                    }
                    continuation.resume(returning: sums)
                }
                healthStore.execute(query)
            }
        }

        /// The last calendar year wholly inside `span`.
        private func lastWholeYear(in span: DateInterval, calendar: Calendar) -> DateInterval? {
            let lastYear = calendar.component(.year, from: span.end)
            for year in stride(from: lastYear, through: lastYear - 1, by: -1) {
                guard let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1)),
                    let end = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))
                else { continue }
                if start >= span.start, end <= span.end { return DateInterval(start: start, end: end) }
            }
            return nil
        }

        private func yearText(_ year: DateInterval, _ calendar: Calendar) -> String {
            "\(calendar.component(.year, from: year.start)) (\(tz))"
        }

        /// A store of `years` synthetic years in `dir`, generated and imported once.
        private func generatedStore() throws -> String {
            let folder = URL(fileURLWithPath: dir)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("bench-healthkit-\(years)y.sqlite").path
            if FileManager.default.fileExists(atPath: path) { return path }
            let days = years * 365 + (years + 3) / 4 + 1
            let xml = folder.appendingPathComponent("bench-healthkit-\(years)y.xml")
            print("Generating \(xml.path) (\(days) days from 2020-01-01)…")
            fflush(nil)
            var configuration = SyntheticExport.Configuration(days: days, seed: 2026)
            configuration.startDate = "2020-01-01"
            try SyntheticExport(configuration: configuration).write(to: xml)
            print("Importing it into \(path)…")
            fflush(nil)
            let importing = path + ".importing"
            StoreOpening.remove(importing)
            let result = try ChildProcess.measure(
                CommandLine.arguments[0], ["import", xml.path, "--db", importing, "--quiet"], stdout: "/dev/null")
            guard result.status == 0 else { throw ValidationError("import of \(xml.path) failed (exit \(result.status))") }
            try FileManager.default.moveItem(atPath: importing, toPath: path)
            try? FileManager.default.removeItem(at: xml)
            return path
        }
    }
#endif
