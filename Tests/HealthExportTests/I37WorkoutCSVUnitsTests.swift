import Foundation
import HealthCore
import Testing

@testable import HealthExport

/// `export csv --workouts` wrote each workout's figures in the unit it recorded them in —
/// `Cal` beside `kcal` and `mi` beside `km` in one column, whatever `--distance-unit` said —
/// a `totalDistance="0"` as a distance of 0, and the climb as the metadata's text (`217 cm`).
/// One unit a column now, in the units asked for; a figure never recorded is empty.
@Suite struct I37WorkoutCSVUnitsTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func workout(
        _ minute: Double, distance: (Double, String)?, energy: (Double, String)?, statistics: [WorkoutStatistic] = [],
        metadata: [MetadataEntry] = []
    ) -> Workout {
        let start = t0 + minute * 60
        return Workout(
            activityType: "HKWorkoutActivityTypeWalking", start: start, end: start + 1_800.5, totalDistance: distance?.0,
            totalDistanceUnit: distance?.1, totalEnergyBurned: energy?.0, totalEnergyBurnedUnit: energy?.1,
            source: Source(name: "Watch"), metadata: metadata, statistics: statistics)
    }

    static func rows(_ workouts: [Workout], _ distance: UnitPreferences.Distance) throws -> [[Substring]] {
        let output = CSVOutput()
        try WorkoutCSV.write(workouts, distance: distance, zone: { _ in TimeZone(identifier: "UTC")! }, to: output)
        let header = WorkoutCSV.header
        return String(decoding: output.takeChunks().joined(), as: UTF8.self).split(separator: "\n").dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(cells.count == header.count)
            // Only the figures' columns (energy … elevation_unit).
            return Array(cells[header.firstIndex(of: "duration_min")!...header.firstIndex(of: "elevation_unit")!])
                .enumerated().filter { $0.offset != 1 }.map(\.element)
        }
    }

    @Test func everyFigureInTheUnitsAsked() throws {
        let walks = [
            Self.workout(
                0, distance: (1.402, "mi"), energy: (134.432, "Cal"),
                metadata: [MetadataEntry(key: "HKElevationAscended", value: "217 cm")]),
            Self.workout(
                60, distance: (2_500, "m"), energy: (418.4, "kJ"),
                statistics: [WorkoutStatistic(type: .heartRate, average: 2.5, maximum: 3, unit: "count/s")]),
            Self.workout(
                120, distance: (0, "km"), energy: nil, metadata: [MetadataEntry(key: "HKElevationAscended", value: "a lot")]),
        ]
        // duration_min, energy, energy_unit, distance, distance_unit, heart_rate_avg, heart_rate_max,
        // heart_rate_unit, elevation_ascended, elevation_unit
        #expect(
            try Self.rows(walks, .km) == [
                ["30.01", "134.4", "kcal", "2.256", "km", "", "", "", "2.2", "m"],
                ["30.01", "100.0", "kcal", "2.500", "km", "150.0", "180.0", "bpm", "", ""],
                ["30.01", "", "", "", "", "", "", "", "", ""],
            ])
        #expect(
            try Self.rows(walks, .mi) == [
                ["30.01", "134.4", "kcal", "1.402", "mi", "", "", "", "7.1", "ft"],
                ["30.01", "100.0", "kcal", "1.553", "mi", "150.0", "180.0", "bpm", "", ""],
                ["30.01", "", "", "", "", "", "", "", "", ""],
            ])
    }
}
