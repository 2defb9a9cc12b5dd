import Foundation
import HealthMetrics
import HealthSynth
import Testing

@testable import HealthReadiness

/// Issue 37 §3: a readiness read takes the figures of the stored days (``DailyFigures``), not
/// the whole days, and writes its texts and dates without `String(format:)`. Each shortcut
/// must give what the long way gave, byte for byte.
@Suite struct I37ReadinessReadTests {
    /// The engine's numbers in its texts: `vsnprintf` against `String(format:)`, over random
    /// values of every kind (huge, tiny, negative, ties, non-finite) and 0–3 decimals.
    @Test func i37_engineTextsAreStringFormatsBytes() {
        var random = SplitMix(seed: 37)
        let special: [Double] = [
            0, -0.0, 0.05, 0.15, 0.25, 0.35, 2.5, -2.5, 1e15, 1e300, -1e300, .infinity, -.infinity, .nan, 5e-324,
        ]
        var values = special
        for _ in 0..<20_000 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: values.append(Double(bitPattern: random.next()))
            case 1: values.append((Double.random(in: -200...200, using: &random) * 100).rounded() / 100 + 0.005)
            case 2: values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 20)
            default: values.append(Double.random(in: 0...150, using: &random))
            }
        }
        for value in values {
            for digits in 0...3 {
                #expect(ReadinessEngine.text(value, digits) == String(format: "%.\(digits)f", value), "\(value) \(digits)")
            }
        }
    }

    /// `LocalDate.description` against `String(format: "%04d-%02d-%02d")` over years 0000–9999
    /// (every 7th day and each year's first and last) and beyond.
    @Test func i37_aDatesTextIsStringFormatsBytes() {
        let first = LocalDate(year: 0, month: 1, day: 1).dayNumber
        let last = LocalDate(year: 9999, month: 12, day: 31).dayNumber
        var numbers = Array(stride(from: first - 400, through: last + 400, by: 7))
        for year in 0...9999 {
            numbers += [LocalDate(year: year, month: 1, day: 1).dayNumber, LocalDate(year: year, month: 12, day: 31).dayNumber]
        }
        for number in numbers {
            let date = LocalDate(dayNumber: number)
            let (year, month, day) = date.components
            #expect(date.description == String(format: "%04d-%02d-%02d", year, month, day))
            if (0...9999).contains(year) { #expect(LocalDate(date.description) == date) }
        }
    }

    /// Parsing: what the old parser (split on "-", `Int(_:)` of each part) accepted, the new
    /// one accepts with the same date — a `+` sign in a part too (days stored with one must
    /// still read: the review found readiness failing on them); everything else both refuse.
    @Test func i37_parsingADateAgreesWithTheOldParser() {
        func old(_ text: String) -> LocalDate? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
                (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            let date = LocalDate(year: year, month: month, day: day)
            return date.components == (year, month, day) ? date : nil
        }
        var random = SplitMix(seed: 3)
        let alphabet = Array("0123456789-+ x٣\u{301}")
        var texts = [
            "2024-02-29", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "0000-01-01", "9999-12-31", "2024-6-01",
            "2024-06-1", "20240601", "2024/06/01", "+202-01-01", "2024-+1-05", "2024-03-+5", "+024-03-05", "2024-+3-+5",
            "2024-03-+ 5", " 2024-06-01", "2024-06-01 ", "٢٠٢٤-06-01",
            "2024-06-0\u{301}1", "",
        ]
        for _ in 0..<50_000 {
            var text = String(
                format: "%04d-%02d-%02d", Int.random(in: 0...9999, using: &random),
                Int.random(in: 0...13, using: &random), Int.random(in: 0...32, using: &random))
            if Bool.random(using: &random) {
                var characters = Array(text)
                characters[Int.random(in: 0..<characters.count, using: &random)] =
                    alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                text = String(characters)
            }
            texts.append(text)
        }
        for text in texts {
            #expect(LocalDate(text) == old(text), "\(text)")
        }
    }

    /// The engine's day series kept in arrays answer what a dictionary answers after any
    /// sequence of writes, near and far (past the widest array span, where they turn into a
    /// dictionary) and before and after the span they started with.
    @Test func i37_dayValuesAnswerAsADictionary() {
        var random = SplitMix(seed: 11)
        for run in 0..<200 {
            let base = Int.random(in: -800_000...2_900_000, using: &random)
            var values = DayValues(span: run.isMultiple(of: 3) ? nil : base...(base + Int.random(in: 0...90, using: &random)))
            var model: [Int: Double] = [:]
            for _ in 0..<200 {
                let far = Int.random(in: 0..<50, using: &random) == 0
                let day =
                    base + (far ? Int.random(in: -300_000...300_000, using: &random) : Int.random(in: -100...200, using: &random))
                let value: Double? = Bool.random(using: &random) ? Double.random(in: 0...100, using: &random) : nil
                values[day] = value
                model[day] = value
                let probe = base + Int.random(in: -150...250, using: &random)
                #expect(values[probe] == model[probe])
            }
            for day in (base - 150)...(base + 250) { #expect(values[day] == model[day]) }
            for day in model.keys { #expect(values[day] == model[day]) }
            let window = (base - 20)...(base + 40)
            #expect(values.values(in: window) == window.compactMap { model[$0] })
        }
    }

    /// Day numbers at the ends of `Int` (a `LocalDate(dayNumber:)` anyone can make) neither
    /// trap nor allocate their span.
    @Test func i37_dayValuesTakeAnyDayNumbers() {
        var values = DayValues(span: Int.min...Int.max)
        values[Int.min] = 1
        values[Int.max] = 2
        #expect(values[Int.min] == 1 && values[Int.max] == 2 && values[0] == nil)
        var grown = DayValues(span: 0...10)
        grown[5] = 3
        grown[Int.max] = 4
        grown[Int.min] = 5
        #expect(grown[5] == 3 && grown[Int.max] == 4 && grown[Int.min] == 5 && grown.values(in: 0...10) == [3])
    }

    /// Scores from a store's figures are the scores from the whole days, and a day's figures
    /// keep what the engine reads of its metadata: steps flagged suspicious count for no
    /// activity; a night recorded only in bed counts its hours in bed, another basis not.
    @Test func i37_figuresKeepWhatTheEngineReadsOfTheMetadata() throws {
        var history = History.steady(-60...0)
        history.update(-1) {
            $0.stepsNormalized = 40_000
            $0.stepsSources = StepsSourcesMetadata(
                primarySource: "iphone", secondarySourcesUsed: [], ignoredSources: [], suspiciousSteps: true, rawSampleCount: 9)
        }
        history.update(0) {
            $0.sleepHours = nil
            $0.sleepSource = SleepSourceMetadata(basis: .inBedOnly, inBedHours: 7.5)
        }
        history.update(-2) {
            $0.sleepHours = nil
            $0.sleepSource = SleepSourceMetadata(basis: .watchStages, inBedHours: 9)
        }
        let figures = history.metrics.compactMap(DailyFigures.init)
        #expect(figures.count == 61)
        #expect(figures.first { $0.date == LocalDate(History.date(-1)) }?.stepsSuspicious == true)
        #expect(figures.first { $0.date == LocalDate(History.date(0)) }?.inBedOnlyHours == 7.5)
        #expect(figures.first { $0.date == LocalDate(History.date(-2)) }?.inBedOnlyHours == nil)
        var settings = ReadinessConfiguration()
        for measure in [ReadinessConfiguration.ActivityMeasure.activeEnergy, .steps] {
            settings.activityMeasure = measure
            let engine = try ReadinessEngine(configuration: settings)
            let dates = (-3...0).map(History.date)
            #expect(try engine.scores(on: dates, figures: figures) == engine.scores(on: dates, history: history.metrics))
        }
        #expect(DailyFigures(History.steady(0...0).metrics[0].with(localDate: "2024-6-1")) == nil)
        // A stored -0 hours in bed is 0, as SQLite's JSON reading gives it.
        var night = History.steady(0...0).metrics[0]
        night.sleepHours = nil
        night.sleepSource = SleepSourceMetadata(basis: .inBedOnly, inBedHours: -0.0)
        #expect(DailyFigures(night)?.inBedOnlyHours?.sign == .plus)
    }
}

extension NormalizedDailyMetrics {
    fileprivate func with(localDate: String) -> NormalizedDailyMetrics {
        var day = self
        day.localDate = localDate
        return day
    }
}
