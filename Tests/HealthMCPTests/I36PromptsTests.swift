import Foundation
import HealthCore
import MCP
import Testing

@testable import HealthMCP

/// Issue 36 §5: the prompts a coach asks for, listed with their arguments, each refusing a
/// bad argument clearly; the resource of the last seven days.
@Suite struct I36PromptsTests {
    @Test func i36_thePromptsAreListedWithTheirArguments() {
        let listed = CoachPrompts.prompts.map { ($0.name, ($0.arguments ?? []).map(\.name)) }
        #expect(
            listed.map(\.0) == [
                "weekly-review", "morning-check-in", "sleep-deep-dive", "training-load-check", "doctor-visit-summary",
                "travel-honest-monthly-review",
            ])
        #expect(listed.map(\.1) == [["week_ending"], [], ["ending", "nights"], ["ending"], ["from", "to"], ["month"]])
        for prompt in CoachPrompts.prompts {
            #expect(prompt.title?.isEmpty == false && prompt.description?.isEmpty == false, "\(prompt.name)")
        }
    }

    /// The request's text, or the error's message.
    static func text(_ name: String, _ arguments: [String: String]? = nil) -> Result<String, MCPError> {
        do {
            let result = try CoachPrompts.get(name, arguments)
            guard result.messages.count == 1, case .text(let text) = result.messages[0].content else {
                return .failure(.internalError("not one text message"))
            }
            return .success(text)
        } catch let error as MCPError {
            return .failure(error)
        } catch {
            return .failure(.internalError("\(error)"))
        }
    }

    @Test func i36_eachPromptNamesItsToolsAndItsPeriod() throws {
        let sleep = try Self.text("sleep-deep-dive", ["ending": "2024-12-30", "nights": "21"]).get()
        #expect(sleep.contains("the 21 nights ending the morning of 2024-12-30") && sleep.contains("get_sleep"))
        #expect(try Self.text("sleep-deep-dive").get().contains("the last 14 nights"))
        let load = try Self.text("training-load-check", ["ending": "2024-06-01"]).get()
        #expect(load.contains("on 2024-06-01") && load.contains("get_training_load"))
        let visit = try Self.text("doctor-visit-summary", ["from": "2024-01-01", "to": "2024-03-31"]).get()
        #expect(visit.contains("from 2024-01-01 to 2024-03-31") && visit.contains("No diagnosis"))
        #expect(try Self.text("doctor-visit-summary", ["to": "2024-03-31"]).get().contains("the 90 days ending 2024-03-31"))
        let travel = try Self.text("travel-honest-monthly-review", ["month": "2024-07"]).get()
        #expect(travel.contains("the month 2024-07") && travel.contains("time zone"))
        // Every prompt keeps the rule on missing data.
        for prompt in CoachPrompts.prompts {
            #expect(try Self.text(prompt.name).get().contains("never treat missing data as zero"), "\(prompt.name)")
        }
    }

    @Test(arguments: [
        ("sleep-deep-dive", ["nights": "6"], "nights must be a whole number from 7 to 28"),
        ("sleep-deep-dive", ["ending": "30/12/2024"], "ending must be a date YYYY-MM-DD"),
        ("doctor-visit-summary", ["from": "2024-05-01", "to": "2024-04-01"], "from must not be after to"),
        ("travel-honest-monthly-review", ["month": "2024-13"], "month must be YYYY-MM"),
        ("travel-honest-monthly-review", ["month": "2024-07-01"], "month must be YYYY-MM"),
        ("morning-check-in", ["day": "2024-01-01"], "morning-check-in takes no argument day"),
        ("weekly-review", ["weekending": "2024-01-01"], "weekly-review takes no argument weekending; it takes week_ending"),
        ("yearly-review", [:], "no prompt yearly-review; there are weekly-review, morning-check-in, sleep-deep-dive"),
    ])
    func i36_aBadArgumentIsRefusedSayingWhatIsExpected(_ name: String, _ arguments: [String: String], _ message: String) {
        guard case .failure(let error) = Self.text(name, arguments) else {
            Issue.record("\(name) \(arguments) was accepted")
            return
        }
        #expect("\(error)".contains(message), "\(error)")
    }

    /// Over the year-old store (data ends 2024-12-30, "now" a year later): the seven days up to its last day.
    @Test func i36_theLastSevenDaysResourceIsTheWeekToTheLastData() async throws {
        let tools = I33LastDayToolsTests.tools()
        let read = try await CoachServer.read("health://days/last-7", tools)
        let text = try #require(read.contents.first?.text)
        #expect(read.contents.first?.mimeType == "application/json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let days = try #require(object["days"] as? [[String: Any]]).compactMap { $0["local_date"] as? String }
        #expect(days == (24...30).map { "2024-12-\($0)" })
        let direct = await tools.call("get_daily_metrics", arguments: ["from": "2024-12-24", "to": "2024-12-30"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(text == String(decoding: try encoder.encode(direct.structuredContent ?? .null), as: UTF8.self))
    }
}
