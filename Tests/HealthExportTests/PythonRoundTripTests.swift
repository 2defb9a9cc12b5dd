import Foundation
import HealthCore
import HealthExport
import Testing

/// The CSV opens cleanly with Python's `csv` module and every value reads back: the
/// fields Python sees are the fields written, and each value parses to the number the
/// exporter meant (the stored value for metrics written in full).
@Suite struct PythonRoundTripTests {
    static let reader = """
        import csv, json, sys
        with open(sys.argv[1], newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f, strict=True))
        print(json.dumps({"rows": rows, "values": [float(r[2]) for r in rows[1:]]}))
        """

    @Test func pythonReadsEveryFieldAndValue() async throws {
        let (database, folder) = try await ExportFixtures.store(ExportFixtures.own)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["weight", "steps", "glucose", "a1c", "body_fat"]
        let (text, _) = try await ExportFixtures.csv(database, names) {
            $0.zone = ExportFixtures.losAngeles
            $0.dateStyle = .healthExporter
            $0.includesSource = true
        }
        let file = folder.appendingPathComponent("export.csv")
        try Data(text.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.reader, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        struct Parsed: Decodable {
            var rows: [[String]]
            var values: [Double]
        }
        let parsed = try JSONDecoder().decode(Parsed.self, from: data)
        #expect(parsed.rows.count == 11)
        #expect(parsed.rows.allSatisfy { $0.count == 5 })
        #expect(parsed.rows[1] == ["3/8/24, 11:30 PM", "Weight", "80.12", "kg", "Scale, \"Pro\" 📏"])
        #expect(parsed.rows[9][4] == "Valley Medical, Lab")
        // Steps, HbA1c and body fat as stored (0.215 → 21.5 %); weight and glucose at their
        // stated precision.
        #expect(parsed.values == [80.12, 80.06, 80.0, 120, 15, 98.0, 97.3, 5.7, 5.7, 21.5])
    }
}
