import Foundation
import HealthCore

/// A lab value read from a FHIR `Observation` among the clinical records.
struct LabResult: Sendable {
    var date: Date
    var value: Double
    var sourceName: String

    /// The observation in `record` when it carries one of `codes` (LOINC) and a numeric
    /// value in `%`; HbA1c in `mmol/mol` (IFCC) is converted to % with the NGSP master
    /// equation, % = 0.09148 × mmol/mol + 2.152. The date is `effectiveDateTime` (or the
    /// start of `effectivePeriod`, or `issued`, or the record's received date).
    init?(_ record: ClinicalRecord, codes: Set<String>) {
        guard let json = record.resourceJSON, let data = json.data(using: .utf8),
            let resource = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            resource["resourceType"] as? String == "Observation",
            let coding = (resource["code"] as? [String: Any])?["coding"] as? [[String: Any]],
            coding.contains(where: { ($0["code"] as? String).map(codes.contains) ?? false }),
            let quantity = resource["valueQuantity"] as? [String: Any],
            let number = (quantity["value"] as? NSNumber)?.doubleValue
        else { return nil }
        let unit = (quantity["code"] as? String) ?? (quantity["unit"] as? String) ?? "%"
        switch unit {
        case "%": value = number
        case "mmol/mol": value = 0.09148 * number + 2.152
        default: return nil
        }
        let written =
            resource["effectiveDateTime"] as? String
            ?? (resource["effectivePeriod"] as? [String: Any])?["start"] as? String
            ?? resource["issued"] as? String
        guard let date = written.flatMap(Self.parseDate) ?? record.receivedDate else { return nil }
        self.date = date
        sourceName = record.sourceName
    }

    /// FHIR `dateTime`: `2024-03-05T08:30:00-08:00`, with fractional seconds, or a date alone
    /// (taken as noon UTC, which is the same calendar day in every zone from −11 to +11).
    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        guard let day = LocalDate(text) else { return nil }
        return day.instant(hour: 12, in: TimeZone(identifier: "UTC")!)
    }
}
