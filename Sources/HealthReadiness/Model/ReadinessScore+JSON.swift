import Foundation
import HealthMetrics

extension ReadinessScore {
    /// `scores` as the server answers them, byte for byte what `JSONEncoder` with sorted keys
    /// and unescaped slashes writes, written directly (`DirectJSONWriter`): `JSONEncoder`'s
    /// generic containers were a tenth of a `GET /v1/readiness` under load. A value the
    /// direct writer does not cover sends the whole answer through `JSONEncoder`.
    public static func backendJSON(_ scores: [ReadinessScore]) throws -> Data {
        try DirectJSONWriter.array(scores, bytesEach: 1_400) { $0.write($1) } ?? encoder.encode(scores)
    }

    /// This score alone, as ``backendJSON(_:)`` writes each.
    public func backendJSON() throws -> Data {
        var writer = DirectJSONWriter(capacity: 1_400)
        writer.write(self)
        return writer.covered ? Data(writer.bytes) : try Self.encoder.encode(self)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension DirectJSONWriter {
    /// One score, its keys and its contributors' keys sorted.
    mutating func write(_ score: ReadinessScore) {
        object(firstKey: "band")
        string(score.band?.rawValue)
        key("calibrating")
        boolean(score.calibrating)
        key("confidence")
        number(score.confidence)
        key("contributors")
        byte(UInt8(ascii: "["))
        for (index, contributor) in score.contributors.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            object(firstKey: "band")
            if let band = contributor.band {
                object(firstKey: "lower")
                number(band.lower)
                key("upper")
                number(band.upper)
                byte(UInt8(ascii: "}"))
            } else {
                raw("null")
            }
            key("baseline")
            number(contributor.baseline)
            key("kind")
            string(contributor.kind.rawValue)
            key("note")
            string(contributor.note)
            key("subscore")
            number(contributor.subscore)
            key("unit")
            string(contributor.unit)
            key("value")
            number(contributor.value)
            key("weight")
            number(contributor.weight)
            byte(UInt8(ascii: "}"))
        }
        byte(UInt8(ascii: "]"))
        key("date")
        string(score.date)
        key("reason")
        string(score.reason)
        key("score")
        integer(score.score)
        key("valid_days")
        integer(score.validDays)
        byte(UInt8(ascii: "}"))
    }
}
