import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import Testing

/// Families the public fixtures lack: audiograms, food correlations, vision prescriptions
/// and elements from the future, in one hand-written export (shapes from Apple's DTD).
@Suite struct ElementFamilyTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 11 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST SensitivityPoint frequencyValue CDATA #REQUIRED>
        ]>
        <HealthData locale="fr_FR">
         <ExportDate value="2024-05-01 10:00:00 +0200"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-02-03" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexMale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeONegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeIII"/>
         <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Mimi" sourceVersion="5.1" creationDate="2024-04-02 09:00:00 +0200" startDate="2024-04-02 08:50:00 +0200" endDate="2024-04-02 09:00:00 +0200">
          <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
          <SensitivityPoint frequencyValue="500" frequencyUnit="Hz" leftEarValue="15" leftEarUnit="dBHL" rightEarValue="20" rightEarUnit="dBHL"/>
          <SensitivityPoint frequencyValue="1000" frequencyUnit="Hz" leftEarValue="10" leftEarUnit="dBHL" rightEarValue="25" rightEarUnit="dBHL" leftEarMasked="1"/>
         </Audiogram>
         <Record type="HKQuantityTypeIdentifierDietaryEnergyConsumed" sourceName="Yazio" unit="kcal" value="520" startDate="2024-04-03 12:30:00 +0200" endDate="2024-04-03 12:30:00 +0200"/>
         <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Yazio" startDate="2024-04-03 12:30:00 +0200" endDate="2024-04-03 12:30:00 +0200">
          <MetadataEntry key="meal" value="Lunch"/>
          <MetadataEntry key="Meal" value="1"/>
          <Record type="HKQuantityTypeIdentifierDietaryEnergyConsumed" sourceName="Yazio" unit="kcal" value="520" startDate="2024-04-03 12:30:00 +0200" endDate="2024-04-03 12:30:00 +0200"/>
          <Record type="HKQuantityTypeIdentifierDietaryProtein" sourceName="Yazio" unit="g" value="31.5" startDate="2024-04-03 12:30:00 +0200" endDate="2024-04-03 12:30:00 +0200"/>
         </Correlation>
         <VisionPrescription type="glasses" dateIssued="2023-01-01 00:00:00 +0100" expirationDate="2025-01-01 00:00:00 +0100" brand="Zeiss">
          <RightEye sphere="-1.25" sphereUnit="D"/>
          <LeftEye sphere="-1.00" sphereUnit="D"/>
         </VisionPrescription>
         <StateOfMindLog kind="daily" date="2024-04-03 20:00:00 +0200"/>
        </HealthData>
        """

    @Test func everyFamilyIsStoredAndNothingIsDropped() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.xml")
        try Data(Self.xml.utf8).write(to: file)
        let database = try Fixtures.database(in: folder)
        let summary = try await Fixtures.importExport(file.path, into: database)
        #expect(summary.exportInfo.exportVersion == 11)
        #expect(summary.exportInfo.locale == "fr_FR")
        #expect(summary.exportInfo.exportDate?.timeIntervalSince1970 == 1_714_550_400)
        #expect(summary.added == [.audiogram: 1, .sample: 1, .correlation: 1, .other: 2])
        #expect(
            try Fixtures.dataCounts(database) == [
                // audiogram + energy (once) + protein + the food correlation
                "sample": 4, "audiogram_point": 2, "correlation_member": 2, "metadata": 3, "raw_element": 2,
                "characteristic": 4,
            ])
        #expect(
            try database.sampleCountsByType() == [
                "HKDataTypeIdentifierAudiogram": 1, "HKQuantityTypeIdentifierDietaryEnergyConsumed": 1,
                "HKQuantityTypeIdentifierDietaryProtein": 1, "HKCorrelationTypeIdentifierFood": 1,
            ])
    }
}
