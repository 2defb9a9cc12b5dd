import Foundation
import HealthCore
import HealthExport
import Testing

/// Issue 34 §5: one `CSVExportRequest` for `healthpipe export csv` and `GET /v1/export.csv`
/// (before, each mapped the units, the date style and the Source column its own way).
@Suite struct I34CSVExportRequestTests {
    private func decoded(_ parameters: [String: String]) throws(CSVExportRequest.InvalidParameter) -> CSVExportRequest {
        try CSVExportRequest(query: { parameters[$0] })
    }

    @Test func noParametersAreTheDefaults() throws {
        let request = try decoded([:])
        #expect(request == CSVExportRequest())
        #expect(request.metrics == "all" && request.asksForAll)
        #expect(request.units == UnitPreferences())
        #expect(request.dateStyle == .iso)
        #expect(!request.includesSource)
    }

    @Test func everyParameterIsTaken() throws {
        let request = try decoded([
            "metrics": "weight,steps", "weight_unit": "lb", "glucose_unit": "mmol/L", "distance_unit": "mi",
            "temperature_unit": "F", "date_format": "healthexporter", "source": "true",
        ])
        var units = UnitPreferences()
        units.weight = .lb
        units.glucose = .millimolesPerLiter
        units.distance = .mi
        units.temperature = .fahrenheit
        #expect(
            request
                == CSVExportRequest(metrics: "weight,steps", units: units, dateStyle: .healthExporter, includesSource: true))
        #expect(!request.asksForAll)
    }

    @Test(arguments: [
        ("weight_unit", "kilo", "weight_unit must be kg or lb"),
        ("glucose_unit", "mg/dl", "glucose_unit must be mg/dL or mmol/L"),
        ("distance_unit", "miles", "distance_unit must be km or mi"),
        ("temperature_unit", "degC", "temperature_unit must be C or F"),
        ("date_format", "ISO", "date_format must be iso or healthexporter"),
        ("source", "1", "source must be true or false"),
    ])
    func aValueOutsideItsSetIsNamedWithTheValuesItTakes(_ name: String, _ value: String, _ message: String) {
        #expect(throws: CSVExportRequest.InvalidParameter.self) { try decoded([name: value]) }
        do {
            _ = try decoded([name: value])
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func theOptionsCarryTheRequestAndTheGivenDays() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let interval = DateInterval(start: Date(timeIntervalSince1970: 1_700_000_000), duration: 86_400)
        let change = (start: Date(timeIntervalSince1970: 1_700_040_000), zone: paris)
        let request = try decoded(["weight_unit": "lb", "date_format": "healthexporter", "source": "true"])
        let options = request.options(zone: zone, interval: interval, zoneChanges: [change])
        #expect(options.zone == zone)
        #expect(options.interval == interval)
        #expect(options.zoneChanges.map(\.start) == [change.start])
        #expect(options.zoneChanges.map(\.zone) == [paris])
        #expect(options.units.weight == .lb)
        #expect(options.dateStyle == .healthExporter)
        #expect(options.includesSource)
    }

    /// Named metrics resolve among the types given (a token's readable ones), `all` among
    /// every stored type: a typo never lists the types withheld.
    @Test func namedMetricsResolveAmongTheTypesGiven() throws {
        let stored = [SampleType("HKQuantityTypeIdentifierStepCount"), SampleType("HKQuantityTypeIdentifierBodyMass")]
        let readable = [stored[0]]
        let all = try CSVExportRequest().chosenMetrics(storedTypes: stored, namedAmong: readable)
        let every = try MetricRegistry.metrics(named: "all", storedTypes: stored)
        #expect(all.map(\.name) == every.map(\.name))
        #expect(Set(all.map(\.name)).isSuperset(of: ["steps", "weight"]))
        let steps = try CSVExportRequest(metrics: "steps").chosenMetrics(storedTypes: stored, namedAmong: readable)
        #expect(steps.map(\.name) == ["steps"])
        do {
            _ = try CSVExportRequest(metrics: "wieght").chosenMetrics(storedTypes: stored, namedAmong: readable)
            Issue.record("a misspelt metric was accepted")
        } catch let error as UnknownMetricError {
            #expect(!error.available.contains("weight"))
        }
    }
}

/// Found attacking the shared request: `?metrics=` (or `--metrics ""`) exported a header
/// alone with a 200; a list that names nothing is refused, naming the parameter.
@Suite struct I34EmptyMetricsTests {
    @Test(arguments: ["", ",", " , ,"])
    func aListNamingNoMetricIsRefused(_ list: String) {
        #expect(!CSVExportRequest.namesAMetric(list))
        do {
            _ = try CSVExportRequest(query: { $0 == "metrics" ? list : nil })
            Issue.record("'\(list)' was taken")
        } catch {
            #expect(error.description == "metrics must be all or a comma-separated list of metric names")
        }
    }

    @Test func aListNamingOneIsTaken() throws {
        #expect(CSVExportRequest.namesAMetric(" steps ,"))
        #expect(try CSVExportRequest(query: { $0 == "metrics" ? "steps," : nil }).metrics == "steps,")
    }
}
