import Foundation
import HealthCore
import MCP
import Testing

@testable import HealthMCP

/// The prompts' day arguments defaulted to today even over an old export ("the last seven
/// days (ending today)"), steering the coach to empty days, while every tool and resource
/// defaults to the last day with data when nothing is newer. The prompts do too now.
@Suite struct I37PromptDefaultsTests {
    static func text(_ name: String, _ arguments: [String: String]? = nil, anchor: DataAnchor) throws -> String {
        let result = try CoachPrompts.get(name, arguments, anchor: anchor)
        guard case .text(let text) = result.messages[0].content else { return "" }
        return text
    }

    @Test func anOldExportsPromptsAreAboutItsLastDays() throws {
        let utc = TimeZone(identifier: "UTC")!
        let end = LocalDate("2022-12-16")!.instant(hour: 9, in: utc)
        let old = DataAnchor(
            spans: [SampleTypeSpan(type: .stepCount, first: end - 400 * 86_400, last: end)], today: LocalDate("2026-11-28")!,
            zone: utc)
        #expect(try Self.text("weekly-review", anchor: old).contains("Review my week: the seven days ending 2022-12-16."))
        #expect(try Self.text("training-load-check", anchor: old).contains("Check my training load on 2022-12-16."))
        #expect(try Self.text("doctor-visit-summary", anchor: old).contains("the 90 days ending 2022-12-16"))
        #expect(try Self.text("travel-honest-monthly-review", anchor: old).contains("Review the month 2022-12."))
        // A start after the data's end runs to today, as the CLI's --from alone (found reviewing).
        #expect(try Self.text("doctor-visit-summary", ["from": "2023-03-01"], anchor: old).contains("from 2023-03-01 to today"))
        // Given arguments win; a store with today's data keeps "today".
        #expect(
            try Self.text("weekly-review", ["week_ending": "2022-01-09"], anchor: old).contains(
                "the seven days ending 2022-01-09"))
        let current = DataAnchor(
            spans: [SampleTypeSpan(type: .stepCount, first: end, last: Date())], today: LocalDate(Date(), in: utc), zone: utc)
        #expect(try Self.text("weekly-review", anchor: current).contains("the last seven days (ending today)"))
    }
}
