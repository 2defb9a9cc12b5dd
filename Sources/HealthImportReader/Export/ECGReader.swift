import Foundation
import HealthCore

/// Reads an `electrocardiograms/ecg_*.csv`: `key,value` header lines, a blank line, then
/// one voltage per line. `Name` and `Date of Birth` are personal and not kept.
enum ECGReader {
    private static let personalKeys: Set<String> = ["Name", "Date of Birth"]

    static func read(_ data: Data, fileName: String) throws -> Electrocardiogram {
        let text = String(decoding: data, as: UTF8.self)
        var ecg = Electrocardiogram(fileName: fileName)
        var inHeader = true
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if inHeader {
                if line.trimmingCharacters(in: .whitespaces).isEmpty {
                    if !ecg.header.isEmpty { inHeader = false }
                    continue
                }
                if let number = Double(line.trimmingCharacters(in: .whitespaces)), !ecg.header.isEmpty {
                    inHeader = false
                    ecg.voltages.append(number)
                    continue
                }
                guard let comma = line.firstIndex(of: ",") else {
                    throw ImportError(.malformedFile, file: fileName, "line \(index + 1): a header line without a comma")
                }
                let key = String(line[..<comma])
                var value = String(line[line.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
                }
                if personalKeys.contains(key) { continue }
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
            } else {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                guard let number = Double(trimmed.replacingOccurrences(of: ",", with: ".")) else {
                    throw ImportError(.malformedFile, file: fileName, "line \(index + 1): not a voltage")
                }
                ecg.voltages.append(number)
            }
        }
        return ecg
    }
}
