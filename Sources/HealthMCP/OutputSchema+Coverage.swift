import HealthCore
import HealthDaily
import HealthMetrics
import MCP

extension OutputSchema {
    /// `coverage` (``CoachTools/coverage(of:usual:)``): how complete the days behind an answer are.
    static let coverage = object(
        [
            "days": integer("Days in the range behind the answer."),
            "from": string("Its first day (YYYY-MM-DD).", nullable: true), "to": string("Its last day.", nullable: true),
            "metrics": array(
                "Each metric this reader may see.",
                of: object([
                    "metric": metric, "days_with_data": integer(),
                    "missing": array(
                        "Runs of days without a value (at most 10), oldest first: no data, never zero.",
                        of: object(["from": string(), "to": string()])),
                    "missing_runs_not_shown": integer(),
                ])),
            "sources": object(
                [
                    "steps": object(
                        Dictionary(uniqueKeysWithValues: SourceCategory.allCases.map { ($0.rawValue, integer()) }),
                        description: "Days whose steps came first from each device family."),
                    "sleep": object(
                        Dictionary(uniqueKeysWithValues: SleepBasis.allCases.map { ($0.rawValue, integer()) }),
                        description: "Nights by what measured them."),
                ], optional: ["steps", "sleep"], description: "Only for kinds this reader may see."),
            "usual_timezone": string("The zone most of the days were in.", nullable: true),
            "other_timezone_days": array("Days in another zone (at most 31).", of: string()),
            "other_timezone_days_not_shown": integer(),
            "withheld": array("Kinds this reader may not see: left out, not zero.", of: kind),
        ], description: "How complete the days behind the answer are (docs/mcp.md §Coverage).")
}
