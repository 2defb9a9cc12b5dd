import Foundation
import GRDB
import HealthCore

/// The rows a sample brings beside its own: metadata entries and the beats of an HRV sample.
extension RecordWriter {
    func writeMetadata(_ metadata: [MetadataEntry], owner: MetadataOwner, id: Int64) throws {
        try metadataRows.begin(rows: metadata.count)
        try addMetadataRows(metadata, owner: owner, id: id)
    }

    /// Binds metadata rows announced with `metadataRows.begin(rows:)`.
    func addMetadataRows(_ metadata: [MetadataEntry], owner: MetadataOwner, id: Int64) throws {
        for (position, entry) in metadata.enumerated() {
            try metadataRows.addRow { row in
                row.bind(owner.rawValue)
                row.bind(id)
                row.bind(position)
                row.bind(entry.key)
                row.bind(entry.value)
            }
        }
    }

    func writeBeats(_ beats: [HeartbeatInstant], anchor: Int64) throws {
        try beatRows.begin(rows: beats.count)
        try addBeatRows(beats, anchor: anchor)
    }

    /// Binds beat rows announced with `beatRows.begin(rows:)`.
    func addBeatRows(_ beats: [HeartbeatInstant], anchor: Int64) throws {
        for (position, beat) in beats.enumerated() {
            try beatRows.addRow { row in
                row.bind(anchor)
                row.bind(position)
                row.bind(beat.time)
                row.bind(beat.beatsPerMinute)
            }
        }
    }
}
