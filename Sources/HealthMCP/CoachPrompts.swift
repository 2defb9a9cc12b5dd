import Foundation
import HealthCore
import MCP

/// The coach's prompts (issue 36 §5): the reviews a coach asks for most, each naming the
/// tools to use and the rule every one keeps — only the tools' numbers, and missing data
/// said as missing, never read as a zero.
enum CoachPrompts {
    /// One prompt: its listing and the request it makes from its arguments.
    struct Entry: Sendable {
        let prompt: Prompt
        let text: @Sendable ([String: String]) throws -> (description: String, text: String)
    }

    /// The rule every prompt ends with.
    static let honesty =
        "Use only the numbers the tools give. Where a tool says data is missing or withheld, say so; never treat missing data as zero."

    static let entries: [Entry] = [
        Entry(
            prompt: Prompt(
                name: "weekly-review", title: "Weekly review",
                description: "A short review of the last seven days: activity, sleep and recovery against the week before.",
                arguments: [
                    .init(
                        name: "week_ending",
                        description:
                            "The week's last day, YYYY-MM-DD (default today, or the last day with data when nothing is newer).")
                ])
        ) { arguments in
            let week =
                try date(arguments, "week_ending").map { "the seven days ending \($0)" }
                ?? "the last seven days (ending today)"
            return (
                "Weekly review of \(week)",
                """
                Review my week: \(week). Use get_daily_metrics for those days, get_sleep for the same \
                nights, get_readiness for the last day, and compare_periods against the seven days before. \
                In five sentences at most: how my activity, sleep and recovery went, one thing that went \
                well and one to change next week. \(honesty)
                """
            )
        },
        Entry(
            prompt: Prompt(
                name: "morning-check-in", title: "Morning check-in",
                description: "How ready the person is today and what that means for today's training.")
        ) { _ in
            (
                "Morning check-in",
                """
                Good morning. Use get_coach_context and get_readiness for today. Tell me in three sentences \
                how ready I am today and why (name the contributors that moved the score), and what kind of \
                training suits today. \(honesty)
                """
            )
        },
        Entry(
            prompt: Prompt(
                name: "sleep-deep-dive", title: "Sleep deep-dive",
                description:
                    "Two weeks of nights in detail: duration, stages, timing and regularity, and how the mornings after looked.",
                arguments: [
                    .init(
                        name: "ending",
                        description:
                            "The last night's morning, YYYY-MM-DD (default today, or the last day with data when nothing is newer)."
                    ),
                    .init(name: "nights", description: "How many nights, 7–28 (default 14)."),
                ])
        ) { arguments in
            let ending = try date(arguments, "ending")
            let nights = try count(arguments, "nights", in: 7...28) ?? 14
            let span = ending.map { "the \(nights) nights ending the morning of \($0)" } ?? "the last \(nights) nights"
            return (
                "Sleep deep-dive over \(span)",
                """
                Look closely at my sleep over \(span). Use get_sleep for those nights (with include_timeline for \
                the last three), get_trends for sleep_hours over a period of 90 for my usual range, and get_daily_metrics \
                for the resting heart rate and HRV of the mornings after. Tell me: my average asleep time against \
                my usual, time in bed against time asleep, deep and REM where a watch measured stages, how regular \
                my bedtime and wake time were, and whether short nights were followed by a higher resting heart \
                rate or lower HRV. End with one concrete change to try. Nights with naps only or no stages are \
                not bad nights: say what was measured. \(honesty)
                """
            )
        },
        Entry(
            prompt: Prompt(
                name: "training-load-check", title: "Training-load check",
                description: "Whether recent training is building, holding or overreaching, and what today should be.",
                arguments: [
                    .init(
                        name: "ending",
                        description:
                            "The day to judge, YYYY-MM-DD (default today, or the last day with data when nothing is newer).")
                ])
        ) { arguments in
            let day = try date(arguments, "ending").map { "on \($0)" } ?? "today"
            return (
                "Training-load check \(day)",
                """
                Check my training load \(day). Use get_training_load for the acute:chronic ratio and its weeks, \
                get_workouts for the last 28 days, and get_readiness for the same day. Tell me whether my load is \
                building, steady or spiking (the ratio's band and what drove it), how recovery (readiness, resting \
                heart rate, HRV) is keeping up, and what today's session should be: rest, easy, or as planned. \
                Weeks without workouts recorded are unknown, not rest, unless the person says so. \(honesty)
                """
            )
        },
        Entry(
            prompt: Prompt(
                name: "doctor-visit-summary", title: "Doctor-visit summary",
                description:
                    "A factual one-page summary of a period for a clinician: vitals, activity, sleep and body measurements, with coverage.",
                arguments: [
                    .init(name: "from", description: "First day, YYYY-MM-DD (default 90 days before `to`)."),
                    .init(
                        name: "to",
                        description: "Last day, YYYY-MM-DD (default today, or the last day with data when nothing is newer)."),
                ])
        ) { arguments in
            let to = try date(arguments, "to")
            let from = try date(arguments, "from")
            if let from, let to, from > to { throw MCPError.invalidParams("from must not be after to") }
            let period =
                switch (from, to) {
                case (let from?, let to?): "from \(from) to \(to)"
                case (let from?, nil): "from \(from) to today"
                case (nil, let to?): "the 90 days ending \(to)"
                case (nil, nil): "the last 90 days"
                }
            return (
                "Doctor-visit summary of \(period)",
                """
                Prepare a summary of my health data \(period) for a visit to my doctor. Use get_daily_metrics for every \
                day of that period (it pages with next_from; its coverage says what was measured), compare_periods \
                between the period's first and second halves for resting_hr, hrv, sleep_hours and steps, \
                query_samples for body mass where there is any, and list_data_types for what is recorded at all. Write it as a clinician would want \
                it: a short table per measure (average, range, trend, the days it was measured out of the days in the \
                period, the devices it came from), then the notable changes with their dates. No diagnosis and no \
                advice: facts only, each with its unit. \(honesty)
                """
            )
        },
        Entry(
            prompt: Prompt(
                name: "travel-honest-monthly-review", title: "Travel-honest monthly review",
                description:
                    "A month in review that keeps travel days apart, so jet lag is not mistaken for a trend.",
                arguments: [
                    .init(
                        name: "month",
                        description:
                            "The month, YYYY-MM (default the month so far, or the last data's month when nothing is newer).")
                ])
        ) { arguments in
            let month = try month(arguments["month"])
            let which = month.map { "the month \($0)" } ?? "this month so far"
            return (
                "Travel-honest review of \(which)",
                """
                Review \(which). Use get_daily_metrics for every day of it (each day carries its time zone) and \
                compare_periods against the month before. First list the days spent in a time zone other than my \
                usual one, and the two days after each change of zone. Then give activity, sleep and recovery for \
                the month twice: over all days, and over the days at home only, and say how much the travel days \
                moved each figure. Do not call a change a trend when it comes from travel days. \(honesty)
                """
            )
        },
    ]

    static var prompts: [Prompt] { entries.map(\.prompt) }

    /// The arguments whose default is today (or, for `month`, this month).
    static let todayArguments = ["week_ending", "ending", "to"]

    /// The prompt `name` with `arguments`; an unknown name or a bad argument is an
    /// invalid-params error that says what is expected. With `anchor` a store whose data
    /// ends before today: an absent day argument (its default today) is the last day with
    /// data, and an absent `month` that day's month, as the tools' own defaults (an old
    /// export's review is of its last week, not of empty days).
    static func get(_ name: String, _ arguments: [String: String]?, anchor: DataAnchor? = nil) throws -> GetPrompt.Result {
        guard let entry = entries.first(where: { $0.prompt.name == name }) else {
            throw MCPError.invalidParams(
                "no prompt \(name.prefix(60)); there are \(entries.map(\.prompt.name).joined(separator: ", "))")
        }
        let known = Set((entry.prompt.arguments ?? []).map(\.name))
        if let unknown = (arguments ?? [:]).keys.sorted().first(where: { !known.contains($0) }) {
            throw MCPError.invalidParams(
                "\(name) takes no argument \(unknown.prefix(40))"
                    + (known.isEmpty ? "" : "; it takes \(known.sorted().joined(separator: ", "))"))
        }
        var given = arguments ?? [:]
        if let anchor, anchor.moved {
            for argument in entry.prompt.arguments ?? [] where given[argument.name] == nil {
                if todayArguments.contains(argument.name) {
                    // A period's end: not before its given start (which then runs to today).
                    if argument.name == "to", let from = given["from"].flatMap(LocalDate.init), from > anchor.day { continue }
                    given[argument.name] = anchor.day.description
                } else if argument.name == "month" {
                    given["month"] = String(anchor.day.description.prefix(7))
                }
            }
        }
        let (description, text) = try entry.text(given)
        return .init(description: description, messages: [.user(.text(text: text))])
    }

    private static func date(_ arguments: [String: String], _ name: String) throws -> LocalDate? {
        guard let text = arguments[name] else { return nil }
        guard let date = LocalDate(text) else { throw MCPError.invalidParams("\(name) must be a date YYYY-MM-DD") }
        return date
    }

    private static func count(_ arguments: [String: String], _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = arguments[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw MCPError.invalidParams("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `YYYY-MM`, checked as the month's first day.
    private static func month(_ text: String?) throws -> String? {
        guard let text else { return nil }
        guard text.count == 7, LocalDate(text + "-01") != nil else {
            throw MCPError.invalidParams("month must be YYYY-MM")
        }
        return text
    }
}
