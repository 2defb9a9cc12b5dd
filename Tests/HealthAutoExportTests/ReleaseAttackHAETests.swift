import Foundation
import HealthCore
import Testing

@testable import HealthAutoExport

/// Finding M1/M2 of the attack on the release build (2026-11-25): Health Auto Export bodies
/// skipped the checks every other way in makes — dates of year 1 or 9999, February 30
/// (stored as March 1), an offset of +99:99, a point ending before it starts (stored as an
/// instant) — and took a metric or workout name of 100,000 characters, which then broke
/// the coach's tools for good.
@Suite struct ReleaseAttackHAETests {
    static func point(_ fields: String) -> Data {
        Data(#"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{\#(fields), "qty": 10}]}]}}"#.utf8)
    }

    static func refusal(_ body: Data) -> HAEReader.ReadError? {
        do {
            _ = try HAEReader.read(body)
            return nil
        } catch let error as HAEReader.ReadError {
            return error
        } catch {
            return nil
        }
    }

    @Test func m1_impossibleDatesAreRefusedNamingThePoint() throws {
        for date in [
            "0001-01-01 10:00:00 +0000", "9999-12-31 10:00:00 +0000", "2024-02-30 10:00:00 +0000",
            "2023-02-29 10:00:00 +0000", "2024-06-01 10:00:00 +9999", "2024-06-01 10:00:00 +1960",
        ] {
            let error = Self.refusal(Self.point(#""date": "\#(date)""#))
            #expect(error?.pointer == "/data/metrics/0/data/0/date", "\(date)")
            #expect(error?.reason.contains("1900–2199") == true, "\(date)")
        }
        // A leap day and the widest real offsets are dates.
        for date in ["2024-02-29 10:00:00 +0000", "2024-06-01 10:00:00 +1400", "2024-06-01 10:00:00 -1200"] {
            #expect(Self.refusal(Self.point(#""date": "\#(date)""#)) == nil, "\(date)")
        }
        let backwards = Self.refusal(
            Self.point(#""start": "2024-06-01 10:00:00 +0000", "end": "2024-06-01 09:00:00 +0000""#))
        #expect(backwards?.pointer == "/data/metrics/0/data/0/end")
        #expect(backwards?.reason == "end must not be before start")
    }

    @Test func m2_aNameLongerThanATypeNameIsRefused() throws {
        let long = String(repeating: "z", count: 100_000)
        let metric = Self.refusal(
            Data(#"{"data": {"metrics": [{"name": "\#(long)", "units": "count", "data": []}]}}"#.utf8))
        #expect(metric?.pointer == "/data/metrics/0/name")
        let workout = Self.refusal(
            Data(
                #"{"data": {"workouts": [{"name": "\#(long)", "start": "2024-06-20 10:00:00 +0200", "end": "2024-06-20 11:00:00 +0200"}]}}"#
                    .utf8))
        #expect(workout?.pointer == "/data/workouts/0/name")
        // 196 characters: a name (HAE:<name> is 200, as long as a type may be).
        let longest = String(repeating: "y", count: 196)
        let batch = try HAEReader.read(
            Data(
                #"{"data": {"metrics": [{"name": "\#(longest)", "units": "count", "data": [{"date": "2024-06-01 10:00:00 +0000", "qty": 1}]}]}}"#
                    .utf8))
        #expect(batch.unknownMetrics == [longest])
    }
}

/// Issue 35, found attacking: Health Auto Export took route points off the globe (a latitude
/// of 1000, an altitude of 1e308) and 300,000 of them, past the 100,000 every other way in
/// takes.
@Suite struct I35HAERoutePointsTests {
    static func workout(_ route: String) -> Data {
        Data(
            #"{"data": {"workouts": [{"name": "Running", "start": "2024-06-01 07:00:00 +0000", "end": "2024-06-01 07:30:00 +0000", "route": \#(route)}]}}"#
                .utf8)
    }

    @Test func implausiblePointsAreRefusedNamingThem() throws {
        let off = ReleaseAttackHAETests.refusal(Self.workout(#"[{"lat": 48, "lon": 2}, {"lat": 1000, "lon": 2}]"#))
        #expect(off?.pointer == "/data/workouts/0/route/1/lat")
        let high = ReleaseAttackHAETests.refusal(Self.workout(#"[{"lat": 48, "lon": 2, "altitude": 1e308}]"#))
        #expect(high?.pointer == "/data/workouts/0/route/0/altitude")
        #expect(high?.reason.hasPrefix("altitude must be between") == true)
        let point = #"{"lat": 48, "lon": 2}"#
        let many = "[" + Array(repeating: point, count: RoutePoint.maximumPerWorkout + 1).joined(separator: ",") + "]"
        #expect(ReleaseAttackHAETests.refusal(Self.workout(many))?.pointer == "/data/workouts/0/route")
        #expect(ReleaseAttackHAETests.refusal(Self.workout(#"[{"lat": 48, "lon": 2, "altitude": 8849}]"#)) == nil)
    }
}
