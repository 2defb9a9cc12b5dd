import Foundation
import HealthMetrics
import Testing

/// The server reads every instant as OpenAPI's `date-time` (RFC 3339): what schemathesis
/// generates must be read, what RFC 3339 forbids refused. Expected values computed with
/// Python's datetime.
@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2024-06-01T08:00:00Z", 1_717_228_800),
        ("2024-06-01T08:00:00.25+02:00", 1_717_221_600.25),
        ("2024-06-01t08:00:00z", 1_717_228_800),
        ("0285-10-17T00:33:09.731-18:49", -53_148_371_870.269),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("2016-12-31T23:59:60Z", 1_483_228_800),
        ("2024-02-29T12:00:00.123456789+23:59", 1_709_121_660.123_456_789),
    ])
    func readsEveryRFC3339DateTime(_ text: String, _ seconds: Double) throws {
        let date = try #require(RFC3339.parse(text), "\(text)")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6, "\(text)")
    }

    @Test(arguments: [
        "2023-02-29T00:00:00Z", "2024-06-01 08:00:00Z", "2024-06-01T08:00:00", "2024-06-01T24:00:00Z",
        "2024-06-01T08:00:00.Z", "2024-06-01T08:00:00+2400", "2024-13-01T08:00:00Z", "2024-06-01T08:00:00.1234567890Z",
        "24-06-01T08:00:00Z", "2024-06-01T08:00:00Z ", "", "yesterday",
    ])
    func refusesWhatRFC3339Forbids(_ text: String) {
        #expect(RFC3339.parse(text) == nil, "\(text)")
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1_717_228_800.25, "2024-06-01T08:00:00.250Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"),
        (-62_135_596_800, "0001-01-01T00:00:00Z"),
        (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
        (1_717_228_799.9996, "2024-06-01T08:00:00Z"),  // rounds to the millisecond, carrying into the next second
        (1_717_228_800.0004, "2024-06-01T08:00:00Z"),
        (1_709_208_000.3, "2024-02-29T12:00:00.300Z"),
    ])
    func writesInstantsToTheMillisecond(_ seconds: Double, _ text: String) {
        #expect(RFC3339.format(Date(timeIntervalSince1970: seconds)) == text)
    }

    /// Whole seconds as Foundation writes them (from 1600: before the Gregorian reform
    /// Foundation writes Julian dates, RFC 3339 and ``RFC3339/parse(_:)`` proleptic
    /// Gregorian ones); any instant read back to its millisecond.
    @Test func formatAgreesWithFoundationAndReadsBack() throws {
        let foundation = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Double(Int64.random(in: -62_135_596_800...253_402_300_799, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            if seconds >= -11_676_096_000 { #expect(RFC3339.format(date) == foundation.string(from: date)) }
            let instant = Date(timeIntervalSince1970: seconds + Double.random(in: 0..<1, using: &generator))
            let back = try #require(RFC3339.parse(RFC3339.format(instant)))
            #expect(
                (back.timeIntervalSince1970 * 1000).rounded() == (instant.timeIntervalSince1970 * 1000).rounded(),
                "\(instant.timeIntervalSince1970)")
        }
    }
}
