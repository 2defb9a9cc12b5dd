import Foundation
import HealthCore
import Testing

@testable import HealthImportReader

/// The ECG CSV reader: voltages read from their bytes where they are plain numbers, exactly
/// as `Double(String)` reads them, and through the text path otherwise.
@Suite struct ECGReaderTests {
    static func csv(_ voltages: [String], lineEnd: String = "\n") -> Data {
        let header = [
            "Name,Test User", "Date of Birth,1990-01-01", "Recorded Date,2024-06-15 10:30:00 +0000",
            "Classification,Sinus Rhythm", "Sample Rate,512.000 Hz", "Unit,µV", "",
        ]
        return Data((header + voltages).joined(separator: lineEnd).utf8)
    }

    /// Every line of digits, signs and points reads as `Double(String)` reads it — a value,
    /// or a refusal naming the line — and other forms (a decimal comma, an exponent, spaces
    /// around) as before.
    @Test func voltagesReadAsDoubleDoes() throws {
        let plain = [
            "12.", ".5", "-.5", "+5", "-0", "0.", "00012", "123456789012345678901234.5", "-1234.5678", "0.000001",
            "4.30455", "1.7976931348623157", "  42\t", " -7.25 ",
        ]
        let ecg = try ECGReader.read(Self.csv(plain), fileName: "ecg.csv")
        let expected = plain.map { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(expected.allSatisfy { $0 != nil })
        #expect(ecg.voltages == expected.compactMap { $0 })
        for other in ["1,5", "1e3", "-2.5E-1"] {
            let read = try ECGReader.read(Self.csv([other]), fileName: "ecg.csv")
            #expect(read.voltages == [Double(other.replacingOccurrences(of: ",", with: "."))!], "\(other)")
        }
        for bad in ["+", "-", ".", "..", "1.2.3", "+-1", "--1", "1-", "12abc"] {
            #expect(throws: ImportError.self, "\(bad)") { try ECGReader.read(Self.csv(["1", bad]), fileName: "ecg.csv") }
            do {
                _ = try ECGReader.read(Self.csv(["1", bad]), fileName: "ecg.csv")
            } catch let error as ImportError {
                #expect(error.description.contains("line 9: not a voltage"), "\(bad): \(error)")
            }
        }
    }

    /// Lines ending in CR LF are lines: the text path split the file at "\n" characters, and
    /// in Swift "\r\n" is one character, so such a file read as one header line and no
    /// voltages.
    @Test func crlfLinesAreLines() throws {
        let ecg = try ECGReader.read(Self.csv(["100", "-25.5", "7"], lineEnd: "\r\n"), fileName: "ecg.csv")
        #expect(ecg.voltages == [100, -25.5, 7])
        #expect(ecg.sampleRateHz == 512 && ecg.unit == "µV" && ecg.classification == "Sinus Rhythm")
        #expect(!ecg.header.contains { $0.key == "Name" || $0.key == "Date of Birth" })
    }

    /// The real fixture reads as before: its header and 10 voltages.
    @Test func theFixtureReads() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_ecg.csv")))
        let ecg = try ECGReader.read(data, fileName: "sample_ecg.csv")
        #expect(ecg.voltages.count == 10 && ecg.voltages.first == 100 && ecg.sampleRateHz == 512)
        #expect(
            ecg.header.map(\.key) == [
                "Recorded Date", "Classification", "Symptoms", "Software Version", "Device", "Sample Rate", "Lead", "Unit",
            ])
    }
}
