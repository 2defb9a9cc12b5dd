import Foundation
import HealthDaily
import Testing

/// `--tz` was not the zone "in effect at" an instant (``ZoneTimeline/zone(at:)`` fell back to
/// the home zone, the system's): where the data ends, today, and a CSV file's stamp were
/// taken in the system's zone while the days were in `--tz`. A probe saw "the data runs from
/// 2020-02-25 to 2020-02-26" under `--tz Pacific/Pago_Pago` for workouts on the 24th and
/// 25th there (the UTC days), whatever zone was asked.
@Suite struct I37ExplicitZoneTests {
    @Test func anExplicitZoneIsInEffectAtEveryInstant() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let utc = TimeZone(identifier: "UTC")!
        let timeline = ZoneTimeline(home: utc, explicit: tokyo)
        #expect(timeline.zone(at: Date(timeIntervalSince1970: 1_582_600_000)) == tokyo)
        #expect(ZoneTimeline(home: utc).zone(at: Date(timeIntervalSince1970: 1_582_600_000)) == utc)
    }

    @Test func whereTheDataRunsIsSaidInTheZoneAsked() throws {
        let (folder, store) = try CommandLine33.store(importing: I37WorkoutHintTests.export, "explicit-zone")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The run at 04:00 UTC on the 25th, the walk until 08:10 UTC on the 26th.
        for (zone, span) in [
            ("Pacific/Pago_Pago", "2020-02-24 to 2020-02-25"), ("America/Los_Angeles", "2020-02-24 to 2020-02-26"),
            ("Asia/Tokyo", "2020-02-25 to 2020-02-26"), ("Pacific/Kiritimati", "2020-02-25 to 2020-02-26"),
        ] {
            let run = try CommandLine33.run(["days", "--db", store, "--tz", zone, "--from", "2020-02-10", "--to", "2020-02-10"])
            #expect(run.err.contains("the data runs from \(span)"), "\(zone): \(run.err)")
            let last = try CommandLine33.run(["workouts", "--db", store, "--tz", zone, "--last", "3"])
            #expect(last.err.contains("latest data \(span.suffix(10))"), "\(zone): \(last.err)")
        }
    }
}
