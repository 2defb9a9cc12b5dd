import Foundation
import HealthCore
import HealthMetrics
import Testing

@testable import HealthDaily

/// A probe of 2026-11-28: the oldest exports (HealthKit Export Version 3, iOS 9 and before)
/// carry no `device` on any record. Every record read as an app's ("other"), and with no
/// Watch or iPhone present the rules summed them all: a Watch's and an iPhone's steps of
/// the same ten minutes were counted twice. Without a device, a source's name that names
/// the Watch or the iPhone (the device's own name there) classifies the sample.
@Suite struct OldExportSourceTests {
    /// As the probe's export wrote them: no `device`, the sources their devices' names.
    static let steps = [
        Build.steps("2016-04-10T08:00:00-07:00", "2016-04-10T08:10:00-07:00", 1000, device: nil, source: "Kim’s Apple Watch"),
        Build.steps("2016-04-10T08:00:00-07:00", "2016-04-10T08:10:00-07:00", 800, device: nil, source: "Kim’s iPhone"),
        Build.steps("2016-04-10T12:00:00-07:00", "2016-04-10T12:10:00-07:00", 300, device: nil, source: "Kim’s iPhone"),
    ]

    @Test(arguments: [NormalizationVersion.v1, .v2])
    func aWatchAndAnIPhoneWithoutDevicesAreNotCountedTwice(_ version: NormalizationVersion) async throws {
        let day = try await Build.normalizer(Self.steps, version: version, now: "2016-04-11T10:00:00Z")
            .metrics(for: Build.day("2016-04-10"))
        // The Watch's 1,000 and the phone's 300 of noon; the phone's 800 lie under the Watch.
        // Before: 2,100, from "other".
        #expect(day.stepsNormalized == 1300)
        #expect(day.stepsRawSum == 2100)
        #expect(day.stepsSources?.primarySource == "apple_watch")
        #expect(day.stepsSources?.secondarySourcesUsed == ["iphone"])
    }

    @Test func aSampleWithoutADeviceIsAnAppsUnlessItsSourceNamesTheDevice() {
        func sample(_ source: String, device: Device? = nil) -> Sample {
            Build.steps("2016-04-10T08:00:00-07:00", "2016-04-10T08:10:00-07:00", 1, device: device, source: source)
        }
        #expect(sample("NJR Apple Watch").deviceClass == .appleWatch)
        #expect(sample("iPhone de Marie").deviceClass == .iPhone)
        #expect(sample("Strava").deviceClass == nil)
        #expect(sample("Health").deviceClass == nil)
        // A device says what it is, whatever the source's name.
        #expect(sample("Kim’s iPhone", device: Build.watch).deviceClass == .appleWatch)
        #expect(SourceCategory(sample("Pedometer++")) == .other)
        #expect(SourceCategory(sample("Kim’s Apple Watch")) == .appleWatch)
    }
}
