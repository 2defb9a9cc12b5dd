import Foundation
import HealthCore
import HealthImportReader
import Testing

/// What a folder export, or a bare `export.xml`, may make an import open: only regular
/// files in the export's own folders (`workout-routes`, `clinical-records`,
/// `electrocardiograms`), or a GPX beside the XML. Found by an attack on the import.
@Suite struct LinkedFileSafetyTests {
    static func clinical(_ path: String, id: String) -> String {
        """
         <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="\(id)" sourceName="Lab" \
        fhirVersion="4.0.1" receivedDate="2024-02-29 10:00:00 +0100" resourceFilePath="\(path)"/>
        """
    }

    static func read(_ path: String) throws -> ([HealthRecord], ExportReading) {
        var records: [HealthRecord] = []
        let reading = try AppleExportReader(path: path).read { batch, _ in records += batch }
        return (records, reading)
    }

    /// An `export.xml` kept in a home folder named `/.ssh/id_rsa` and
    /// `/whatever/.bash_history` (found beside it by name) as clinical records' JSON: both
    /// were stored whole. Now both are refused; a record in `clinical-records/` is read.
    @Test func aBareExportCannotReachTheUsersOtherFiles() throws {
        let home = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let manager = FileManager.default
        for folder in [".ssh", "clinical-records"] {
            try manager.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data("PRIVATE KEY".utf8).write(to: home.appendingPathComponent(".ssh/id_rsa"))
        try Data("history".utf8).write(to: home.appendingPathComponent(".bash_history"))
        // A GPX beside the XML may be a route's file, never a clinical record's JSON.
        try Data("<gpx>a private ride</gpx>".utf8).write(to: home.appendingPathComponent("private-ride.gpx"))
        try Data(#"{"resourceType": "Observation"}"#.utf8).write(to: home.appendingPathComponent("clinical-records/a.json"))
        let records = [
            Self.clinical("/.ssh/id_rsa", id: "key"), Self.clinical("/whatever/.bash_history", id: "history"),
            Self.clinical("/clinical-records/a.json", id: "real"), Self.clinical("/private-ride.gpx", id: "ride"),
        ]
        let xml = ExportReaderTests.exportXML(routes: [], after: records.joined(separator: "\n"))
        try Data(xml.utf8).write(to: home.appendingPathComponent("export.xml"))

        let (read, reading) = try Self.read(home.appendingPathComponent("export.xml").path)

        #expect(reading.warnings == ["linked file refused: outside the export's own folders": 3])
        let json = read.compactMap { if case .clinicalRecord(let record) = $0 { record.resourceJSON } else { nil } }
        #expect(json == [#"{"resourceType": "Observation"}"#])
    }

    /// A route that is a FIFO blocked the import for ever (open waits for a writer), and a
    /// dangling link among the routes failed it while hashing the folder. Now the FIFO is
    /// refused unopened and the dangling link is not part of the export.
    @Test func aFIFOOrADanglingLinkNeitherBlocksNorFails() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let routes = folder.appendingPathComponent("workout-routes")
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        #expect(mkfifo(routes.appendingPathComponent("fifo.gpx").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: routes.appendingPathComponent("gone.gpx").path, withDestinationPath: "nowhere.gpx")
        let xml = ExportReaderTests.exportXML(routes: ["/workout-routes/fifo.gpx", "/workout-routes/gone.gpx"])
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))

        let (read, reading) = try Self.read(folder.path)

        #expect(
            reading.warnings == [
                "linked file refused: not a regular file": 1, "route file referenced but missing": 1,
            ])
        #expect(read.count == 1 && reading.routeFilesLoaded == 0 && !reading.contentHash.isEmpty)
    }

    /// An export folder given as a symbolic link to it is read (it held "no Apple Health
    /// export"), its routes with it.
    @Test func aFolderGivenAsALinkIsRead() throws {
        let base = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        let gpx = #"<gpx version="1.1"><trk><trkseg><trkpt lon="2.35" lat="48.85"/></trkseg></trk></gpx>"#
        try Data(gpx.utf8).write(to: folder.appendingPathComponent("workout-routes/route.gpx"))
        let xml = ExportReaderTests.exportXML(routes: ["/workout-routes/route.gpx"])
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let link = base.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)

        let (read, reading) = try Self.read(link.path)

        #expect(read.count == 1 && reading.routeFilesLoaded == 1 && reading.routePoints == 1 && reading.warnings.isEmpty)
    }
}
