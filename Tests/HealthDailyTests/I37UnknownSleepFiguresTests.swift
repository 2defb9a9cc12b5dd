import Foundation
import HealthCore
import HealthMetrics
import Testing

@testable import HealthDaily

/// A figure a night's source never measured is unknown, not 0 (ALGORITHMS §2): a probe found
/// an iPhone-only night (time in bed alone) shown with 0 minutes of deep, REM, core and awake
/// and 0 awakenings, and `"awakenings": 0` in its JSON.
@Suite struct I37UnknownSleepFiguresTests {
    /// In bed 23:00–07:00 by the iPhone's bedtime schedule, nothing else.
    static let inBedOnly = [
        Build.sleep("2024-03-04T23:00:00-08:00", "2024-03-05T07:00:00-08:00", "InBed", device: Build.phone, source: "iPhone")
    ]

    /// Asleep 23:10–03:00 and 03:20–07:00 without stages, awake between (an app).
    static let unstaged = [
        Build.sleep("2024-03-04T23:10:00-08:00", "2024-03-05T03:00:00-08:00", "AsleepUnspecified", device: nil, source: "App"),
        Build.sleep("2024-03-05T03:00:00-08:00", "2024-03-05T03:20:00-08:00", "Awake", device: nil, source: "App"),
        Build.sleep("2024-03-05T03:20:00-08:00", "2024-03-05T07:00:00-08:00", "AsleepUnspecified", device: nil, source: "App"),
    ]

    @Test func onlyTimeInBedLeavesStagesAndAwakeningsUnknown() async throws {
        let main = try #require(try await SleepSessionTests.night("2024-03-05", Self.inBedOnly).main)
        #expect(main.basis == .inBedOnly && main.asleepSeconds == nil)
        #expect(main.awakenings == nil)
        for stage in [SleepStage.deep, .core, .rem, .unspecified, .awake] {
            #expect(main.stageMinutes(stage) == nil, "\(stage)")
        }
        #expect(main.stageMinutes(.inBed) == 480)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(main)) as? [String: Any]
        #expect(json?["awakenings"] is NSNull)
    }

    @Test func asleepWithoutStagesLeavesOnlyTheStagesUnknown() async throws {
        let main = try #require(try await SleepSessionTests.night("2024-03-05", Self.unstaged).main)
        #expect(main.basis == .asleepUnspecified)
        #expect(main.awakenings == 1)
        #expect(main.stageMinutes(.deep) == nil && main.stageMinutes(.core) == nil && main.stageMinutes(.rem) == nil)
        #expect(main.stageMinutes(.unspecified) == 450 && main.stageMinutes(.awake) == 20)
    }

    @Test func stagesMeasuredAreKnownEvenWhenNone() async throws {
        let main = try #require(try await SleepSessionTests.night("2024-03-05", SleepSessionTests.lateNight).main)
        #expect(main.basis == .trackerStages)
        #expect(main.awakenings == 2)
        #expect(main.stageMinutes(.deep) == 80 && main.stageMinutes(.rem) == 90 && main.stageMinutes(.core) == 180)
        #expect(main.stageMinutes(.unspecified) == 0)
    }
}
