import Foundation

/// An ECG recording from the export's `electrocardiograms/ecg_*.csv`: a key/value header,
/// then one voltage sample per line.
public struct Electrocardiogram: Hashable, Sendable, Codable {
    /// The file name inside the export.
    public var fileName: String
    public var recordedDate: Date?
    public var classification: String?
    public var symptoms: String?
    public var softwareVersion: String?
    public var device: String?
    /// Samples per second (the header's `Sample Rate`, e.g. `512.000 Hz`).
    public var sampleRateHz: Double?
    public var lead: String?
    /// Unit of `voltages` as written (`µV`, `uV`).
    public var unit: String?
    /// The whole header, in order, except the personal `Name` and `Date of Birth` lines.
    public var header: [MetadataEntry]
    public var voltages: [Double]

    public init(
        fileName: String, recordedDate: Date? = nil, classification: String? = nil, symptoms: String? = nil,
        softwareVersion: String? = nil, device: String? = nil, sampleRateHz: Double? = nil, lead: String? = nil,
        unit: String? = nil, header: [MetadataEntry] = [], voltages: [Double] = []
    ) {
        self.fileName = fileName
        self.recordedDate = recordedDate
        self.classification = classification
        self.symptoms = symptoms
        self.softwareVersion = softwareVersion
        self.device = device
        self.sampleRateHz = sampleRateHz
        self.lead = lead
        self.unit = unit
        self.header = header
        self.voltages = voltages
    }
}
