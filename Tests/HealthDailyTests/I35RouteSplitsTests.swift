import Foundation
import HealthCore
import Testing

@testable import HealthDaily

/// Issue 35 §4/§5: splits from a route's points, by hand.
@Suite struct I35RouteSplitsTests {
    static let t0 = Date(timeIntervalSince1970: 1_717_228_800)

    /// 0.009° of latitude is 0.009 × π / 180 × 6,371,008.8 = 1,000.7544 m: one split of 1 km
    /// at 1,000 / 1,000.7544 of the 300 s between the points, then the 0.75 m left.
    @Test func oneKilometreAndTheRest() throws {
        let a = RoutePoint(time: Self.t0, latitude: 48, longitude: 2)
        let b = RoutePoint(time: Self.t0 + 300, latitude: 48.009, longitude: 2)
        let metres = 0.009 * Double.pi / 180 * RouteSplits.earthRadius
        #expect(abs(RouteSplits.distance(a, b) - metres) < 1e-6)
        let splits = RouteSplits.splits([a, b])
        #expect(splits.count == 2)
        #expect(splits[0].index == 1 && splits[0].meters == 1_000)
        // Instants are Dates: seconds to a few tenths of a microsecond.
        #expect(abs(splits[0].seconds - 300 * 1_000 / metres) < 1e-6)
        #expect(abs(splits[1].meters - (metres - 1_000)) < 1e-6)
        #expect(abs(splits[0].seconds + splits[1].seconds - 300) < 1e-6)
    }

    /// Three kilometres along the equator at 5 min/km, a point each 500 m: three whole
    /// splits of 300 s; points without a time are skipped; in miles, one split and the rest.
    @Test func evenPaceAlongTheEquator() {
        let step = 500 / (Double.pi / 180 * RouteSplits.earthRadius)  // degrees of longitude per 500 m
        var points = (0...6).map { RoutePoint(time: Self.t0 + Double($0) * 150, latitude: 0, longitude: Double($0) * step) }
        points.insert(RoutePoint(latitude: 0, longitude: 5), at: 3)
        let splits = RouteSplits.splits(points)
        #expect(splits.count == 3)
        #expect(splits.allSatisfy { abs($0.seconds - 300) < 1e-6 && abs($0.meters - 1_000) < 1e-6 })
        let miles = RouteSplits.splits(points, unit: RouteSplits.mile)
        #expect(miles.count == 2 && abs(miles[0].seconds - 300 * 1.609344) < 1e-6)
        #expect(RouteSplits.splits([points[0]]).isEmpty)
    }

    /// Two routes of a workout: the way between them (the recording stopped) is not
    /// counted; its time is. 600 m, a jump of 10 km, 600 m: one split of 1 km and 200 m.
    @Test func theWayBetweenRoutesIsNotCounted() {
        let metre = 1 / (Double.pi / 180 * RouteSplits.earthRadius)
        let first = [0.0, 600].enumerated().map {
            RoutePoint(time: Self.t0 + Double($0.offset) * 200, latitude: 0, longitude: $0.element * metre)
        }
        let second = [10_600.0, 11_200].enumerated().map {
            RoutePoint(time: Self.t0 + 600 + Double($0.offset) * 200, latitude: 0, longitude: $0.element * metre)
        }
        let splits = RouteSplits.splits(routes: [first, second])
        #expect(splits.count == 2)
        #expect(abs(splits[0].meters - 1_000) < 1e-6 && abs(splits[1].meters - 200) < 1e-3)
        // 600 m in 200 s, the 400 s gap, 400 m of the second route's 600 in 133.3 s.
        #expect(abs(splits[0].seconds - (200 + 400 + 400.0 / 3)) < 1e-6)
    }

    /// Found reviewing: two points on opposite sides of the Earth a second apart made 20,000
    /// splits of a kilometre (and a page of a route made of such jumps, billions): a jump
    /// faster than any GPS reports is no way travelled, and splits stop at 40,000.
    @Test func aJumpAcrossTheEarthIsNoWayTravelled() {
        let t0 = Date(timeIntervalSince1970: 1_717_228_800)
        let points = (0..<1_000).map { index in
            RoutePoint(time: t0 + Double(index), latitude: 0, longitude: index % 2 == 0 ? 0 : 180)
        }
        #expect(RouteSplits.splits(points).isEmpty)
        // A real kilometre in 300 s still is one.
        let walk = [RoutePoint(time: t0, latitude: 48, longitude: 2), RoutePoint(time: t0 + 300, latitude: 48.009, longitude: 2)]
        #expect(RouteSplits.splits(walk).first?.meters == 1_000)
    }
}
