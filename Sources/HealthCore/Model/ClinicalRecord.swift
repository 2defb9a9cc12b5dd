import Foundation

/// A clinical record (`ClinicalRecord`) with its FHIR resource, when the export holds it.
public struct ClinicalRecord: Hashable, Sendable, Codable {
    /// The FHIR resource type (`Observation`, `Procedure`, …).
    public var type: String
    public var identifier: String
    public var sourceName: String
    public var sourceURL: String?
    public var fhirVersion: String?
    public var receivedDate: Date?
    /// `resourceFilePath` as written (`/clinical-records/Observation-….json`).
    public var resourceFilePath: String?
    /// The FHIR JSON, as read from the export's `clinical-records/` folder.
    public var resourceJSON: String?

    public init(
        type: String, identifier: String, sourceName: String, sourceURL: String? = nil, fhirVersion: String? = nil,
        receivedDate: Date? = nil, resourceFilePath: String? = nil, resourceJSON: String? = nil
    ) {
        self.type = type
        self.identifier = identifier
        self.sourceName = sourceName
        self.sourceURL = sourceURL
        self.fhirVersion = fhirVersion
        self.receivedDate = receivedDate
        self.resourceFilePath = resourceFilePath
        self.resourceJSON = resourceJSON
    }
}
