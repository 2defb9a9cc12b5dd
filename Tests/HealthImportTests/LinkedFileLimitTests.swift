import Foundation
import HealthCore
import HealthImportReader
import Testing
import ZIPFoundation

/// A hostile export cannot make an import hold an unbounded file: a route past
/// `maxRoutePoints` is stored without its points, a FHIR JSON or ECG past
/// `maxLinkedFileBytes` is left out, each with a note, and the rest of the import goes on.
/// Before, a server import of a 10 MB upload (50× inflation allowed) could hold a 500 MB
/// JSON whole, three times over, or 2.5 million route points.
@Suite struct LinkedFileLimitTests {
    static func gpx(points: Int) -> String {
        let rows = (0..<points).map { index in
            "<trkpt lon=\"2.35\" lat=\"\(48.85 + Double(index) * 1e-5)\"><ele>35</ele></trkpt>"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1"><trk><trkseg>
            \(rows.joined(separator: "\n"))
            </trkseg></trk></gpx>
            """
    }

    /// A FHIR resource of exactly `bytes` bytes.
    static func json(bytes: Int) -> Data {
        let (head, tail) = (#"{"resourceType": "Observation", "note": ""#, #""}"#)
        return Data((head + String(repeating: "x", count: bytes - head.utf8.count - tail.utf8.count) + tail).utf8)
    }

    static let clinical = """
         <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="a1c" sourceName="Lab" \
        fhirVersion="4.0.1" receivedDate="2024-02-29 10:00:00 +0100" resourceFilePath="/clinical-records/big.json"/>
         <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="ldl" sourceName="Lab" \
        fhirVersion="4.0.1" receivedDate="2024-02-29 10:00:00 +0100" resourceFilePath="/clinical-records/small.json"/>
        """

    /// The export's files by path: a route of 1,001 points and one of 1,000, a JSON of 1,001
    /// bytes and one of 1,000.
    static let files: [(String, Data)] = [
        (
            "export.xml",
            Data(
                ExportReaderTests.exportXML(routes: ["/workout-routes/long.gpx", "/workout-routes/fits.gpx"], after: clinical)
                    .utf8)
        ),
        ("workout-routes/long.gpx", Data(gpx(points: 1_001).utf8)),
        ("workout-routes/fits.gpx", Data(gpx(points: 1_000).utf8)),
        ("clinical-records/big.json", json(bytes: 1_001)),
        ("clinical-records/small.json", json(bytes: 1_000)),
    ]

    @Test func routesAndFilesPastTheirCapsAreLeftOutWithANote() throws {
        #expect(Self.files[3].1.count == 1_001 && Self.files[4].1.count == 1_000)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unpacked = folder.appendingPathComponent("export")
        for (path, data) in Self.files {
            let url = unpacked.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let zip = folder.appendingPathComponent("export.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        for (path, data) in Self.files { try BadInputTests.add(data, as: "apple_health_export/" + path, to: archive) }
        let options = AppleExportReader.Options(maxRoutePoints: 1_000, maxLinkedFileBytes: 1_000)

        for path in [unpacked.path, zip.path] {
            var records: [HealthRecord] = []
            let reading = try AppleExportReader(path: path, options: options).read { batch, _ in records += batch }

            #expect(
                reading.warnings == [
                    "route left without its points: more than the import holds": 1,
                    "linked file left out: larger than the import reads whole": 1,
                ], "\(path)")
            #expect(reading.routeFilesLoaded == 1 && reading.routePoints == 1_000 && reading.clinicalResourcesLoaded == 1)
            guard case .workout(let workout) = records.first else {
                Issue.record("\(path): the workout comes first")
                continue
            }
            #expect(workout.routes.map(\.points.count) == [0, 1_000], "\(path)")
            let json = records.compactMap {
                if case .clinicalRecord(let record) = $0 { record.resourceJSON?.utf8.count } else { nil }
            }
            #expect(records.count == 3 && json == [1_000], "\(path)")
        }
    }

    /// The route cap holds for a workout's routes together: eight routes naming one file of
    /// a million points loaded eight million (992 MB). And an ECG CSV has a cap of its own,
    /// as parsing one holds about 15 times its size.
    @Test func aWorkoutsRoutesShareTheCapAndAnECGHasItsOwn() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = ExportReaderTests.exportXML(routes: Array(repeating: "/workout-routes/one.gpx", count: 3))
        var ecg = "Name,Test\nRecorded Date,2024-06-15 10:30:00 +0000\nSample Rate,512.000 Hz\nUnit,uV\n\n"
        let header = ecg.utf8.count
        ecg += String(repeating: "100\n", count: (1_000 - header) / 4 + 1)
        let files: [(String, Data)] = [
            ("export.xml", Data(xml.utf8)), ("workout-routes/one.gpx", Data(Self.gpx(points: 400).utf8)),
            ("electrocardiograms/ecg_2024-06-15.csv", Data(ecg.utf8)),
            ("electrocardiograms/ecg_2024-06-16.csv", Data(ecg.utf8.prefix(1_000))),
        ]
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let options = AppleExportReader.Options(maxRoutePoints: 1_000, maxElectrocardiogramBytes: 1_000)
        var records: [HealthRecord] = []

        let reading = try AppleExportReader(path: folder.path, options: options).read { batch, _ in records += batch }

        #expect(
            reading.warnings == [
                "route left without its points: more than the import holds": 1,
                "linked file left out: larger than the import reads whole": 1,
            ])
        guard case .workout(let workout) = records.first else {
            Issue.record("the workout comes first")
            return
        }
        #expect(workout.routes.map(\.points.count) == [400, 400, 0] && reading.routePoints == 800)
        let ecgs = records.filter { if case .electrocardiogram = $0 { true } else { false } }
        #expect(ecgs.count == 1 && Data(ecg.utf8).count > 1_000)
    }
}
