import Foundation
import HealthCore

/// Reads an `electrocardiograms/ecg_*.csv`: `key,value` header lines, a blank line, then
/// one voltage per line. `Name` and `Date of Birth` are personal and not kept.
enum ECGReader {
    private static let personalKeys: Set<String> = ["Name", "Date of Birth"]

    static func read(_ data: Data, fileName: String) throws -> Electrocardiogram {
        var ecg = Electrocardiogram(fileName: fileName)
        var inHeader = true
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            var number = 0
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
                number += 1
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                start = end + 1
                // A voltage line of plain digits, read from its bytes: a 30-second
                // recording has 15,360 of them, and the text path below took 2.4 µs each.
                if !inHeader, let voltage = plainVoltage(raw) {
                    ecg.voltages.append(voltage)
                    continue
                }
                let line = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
                if inHeader {
                    inHeader = try readHeader(line, number: number, into: &ecg, fileName: fileName)
                    continue
                }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                guard let voltage = Double(trimmed.replacingOccurrences(of: ",", with: ".")) else {
                    throw ImportError(.malformedFile, file: fileName, "line \(number): not a voltage")
                }
                ecg.voltages.append(voltage)
            }
        }
        return ecg
    }

    /// A line of `[+-]digits[.digits]` with spaces or tabs around and an optional `\r`: its
    /// value, exactly as `Double(String)` reads it; `nil` for anything else (the text path).
    private static func plainVoltage(_ line: UnsafeRawBufferPointer) -> Double? {
        var lower = 0
        var upper = line.count
        if upper > 0, line[upper - 1] == 13 { upper -= 1 }
        while lower < upper, line[lower] == 32 || line[lower] == 9 { lower += 1 }
        while upper > lower, line[upper - 1] == 32 || line[upper - 1] == 9 { upper -= 1 }
        guard upper > lower else { return nil }
        for index in lower..<upper {
            let byte = line[index]
            guard (48...57).contains(byte) || byte == 46 || byte == 45 || byte == 43 else { return nil }
        }
        return ByteParsing.double(UnsafeRawBufferPointer(rebasing: line[lower..<upper]))
    }

    /// Reads one line of the header; `false` once the header has ended (a blank line, or a
    /// first voltage, which is kept).
    private static func readHeader(
        _ line: String, number: Int, into ecg: inout Electrocardiogram, fileName: String
    ) throws -> Bool {
        if line.trimmingCharacters(in: .whitespaces).isEmpty { return ecg.header.isEmpty }
        if let voltage = Double(line.trimmingCharacters(in: .whitespaces)), !ecg.header.isEmpty {
            ecg.voltages.append(voltage)
            return false
        }
        guard let comma = line.firstIndex(of: ",") else {
            throw ImportError(.malformedFile, file: fileName, "line \(number): a header line without a comma")
        }
        let key = String(line[..<comma])
        var value = String(line[line.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
            value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
        if personalKeys.contains(key) { return true }
        ecg.header.append(MetadataEntry(key: key, value: value))
        switch key {
        case "Recorded Date": ecg.recordedDate = ExportDate.parse(value)?.date
        case "Classification": ecg.classification = value
        case "Symptoms": ecg.symptoms = value.isEmpty ? nil : value
        case "Software Version": ecg.softwareVersion = value
        case "Device": ecg.device = value
        case "Sample Rate": ecg.sampleRateHz = Double(value.split(separator: " ").first ?? "")
        case "Lead": ecg.lead = value
        case "Unit": ecg.unit = value
        default: break
        }
        return true
    }
}
