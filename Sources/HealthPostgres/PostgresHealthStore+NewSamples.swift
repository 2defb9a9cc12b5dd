import Foundation
import HealthCore
import PostgresNIO

/// A statement that must change exactly one row in the transaction of
/// ``PostgresHealthStore/addNewSamples(_:dirty:guard:)``, right after the user's lock (a sync
/// batch's sequence, checked and advanced): `sql`'s only parameter, `$1`, is `arguments` as
/// a `text[]`.
public struct PostgresWriteGuard: Sendable {
    public let sql: String
    public let arguments: [String]

    public init(sql: String, arguments: [String]) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The statement with its arguments bound, to run in a writer's transaction instead
    /// (``PostgresRecordWriter/execute(_:)``).
    public var query: PostgresQuery {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(arguments)
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}

/// The guard of ``PostgresHealthStore/addNewSamples(_:dirty:guard:)`` changed no row: nothing
/// was written.
public struct PostgresWriteGuardRefused: Error {}

extension PostgresHealthStore {
    /// Writes `records` in one statement and one round trip (issue 37 §2) when they are
    /// samples, workouts and audiograms that all are new: none of their UUIDs or content keys
    /// stored, none of their writer-given UUIDs deleted, no two of them alike, and their names
    /// cached. The statement (`health_add_new_samples`, ``PostgresHealthSchema/addNewSamples``)
    /// takes the writer's locks in the writer's order and checks all that under them, so
    /// what it stores is what ``write(_:)`` would: every record added, with the next anchors.
    /// Otherwise it writes nothing and returns `nil`: the caller writes the batch with
    /// ``PostgresRecordWriter``, whose rules then decide. `dirty`: the spans to mark dirty in
    /// the same transaction, with their zone. Returns how many records were added.
    public func addNewSamples(
        _ records: [HealthRecord], dirty: (intervals: [DateInterval], zone: String?)?, guard writeGuard: PostgresWriteGuard?
    ) async throws -> Int? {
        guard let batch = try NewSamplesBatch(records, names: database.names) else { return nil }
        var bindings = PostgresBindings(capacity: 30)
        bindings.append(userID)
        bindings.append(database.ownerTable.withLock { $0 })
        bindings.append(writeGuard?.sql)
        bindings.append(writeGuard?.arguments ?? [])
        bindings.append(batch.sources)
        bindings.append(batch.devices)
        bindings.append(batch.given)
        bindings.append(batch.uuids)
        bindings.append(batch.keys)
        bindings.append(batch.types)
        bindings.append(batch.starts)
        bindings.append(batch.ends)
        bindings.append(PostgresNullableArray(batch.offsets))
        bindings.append(PostgresNullableArray(batch.zones))
        bindings.append(PostgresNullableArray(batch.values))
        bindings.append(PostgresNullableArray(batch.texts))
        bindings.append(PostgresNullableArray(batch.units))
        bindings.append(batch.sourceIDs)
        bindings.append(PostgresNullableArray(batch.deviceIDs))
        bindings.append(PostgresNullableArray(batch.created))
        bindings.append(PostgresNullableArray(batch.metadata))
        bindings.append(PostgresNullableArray(batch.beats))
        bindings.append(PostgresNullableArray(batch.details))
        bindings.append(batch.spanTypes)
        bindings.append(batch.spanDurations)
        let spans = DirtySpan.merged(dirty?.intervals ?? [])
        bindings.append(spans.map(\.start.timeIntervalSince1970))
        bindings.append(spans.map(\.end.timeIntervalSince1970))
        bindings.append(dirty?.zone)
        bindings.append(PostgresHealthDatabase.notificationChannel)
        bindings.append(batch.typeNames)
        let placeholders = (1...bindings.count).map { "$\($0)" }.joined(separator: ",")
        let query = PostgresQuery(unsafeSQL: "SELECT health_add_new_samples(\(placeholders))", binds: bindings)
        do {
            // `NULL`: the writer's rules have something to decide; nothing was written.
            for try await last in try await database.client.query(query, logger: database.logger).decode(Int64?.self) {
                return last == nil ? nil : records.count
            }
            return nil
        } catch let error as PSQLError {
            switch error.serverInfo?[.sqlState] {
            case "HP000": return nil
            case "HP001": throw PostgresWriteGuardRefused()
            // Contention: the writer takes it from here, with its tries.
            case _ where StoreBusyError.isContention(error): return nil
            default: throw error
            }
        }
    }
}

/// The columns of ``PostgresHealthStore/addNewSamples(_:dirty:guard:)``'s rows, one array each,
/// built as ``PostgresRecordWriter`` builds its rows.
private struct NewSamplesBatch {
    var uuids: [UUID] = []
    var keys: [UUID] = []
    var given: [UUID] = []
    var types: [Int32] = []
    var starts: [Double] = []
    var ends: [Double] = []
    var offsets: [Int32?] = []
    var zones: [String?] = []
    var values: [Double?] = []
    var texts: [String?] = []
    var units: [String?] = []
    var sourceIDs: [Int32] = []
    var deviceIDs: [Int32?] = []
    var created: [Double?] = []
    var metadata: [String?] = []
    var beats: [String?] = []
    var details: [String?] = []
    var sources: [Int32] = []
    var devices: [Int32] = []
    var spanTypes: [Int32] = []
    var spanDurations: [Double] = []
    var typeNames = ""

    /// `nil` when a record is of another family, two are alike, or a name is not cached.
    init?(_ records: [HealthRecord], names: InternedNames) throws {
        guard !records.isEmpty else { return nil }
        var samples: [Sample] = []
        var details: [String?] = []
        samples.reserveCapacity(records.count)
        details.reserveCapacity(records.count)
        for record in records {
            switch record {
            case .sample(let sample):
                samples.append(sample)
                details.append(nil)
            case .workout(let workout):
                samples.append(workout.header)
                details.append(try WorkoutDetails(workout).json())
            case .audiogram(let audiogram):
                samples.append(audiogram.sample)
                details.append(try JSONText.encode(audiogram.points))
            default: return nil
            }
        }
        guard let ids = names.cachedIDs(of: samples) else { return nil }
        var seenKeys = Set<ContentKey>(minimumCapacity: records.count)
        var seenUUIDs = Set<UUID>(minimumCapacity: records.count)
        var durations: [Int32: Double] = [:]
        for (index, record) in records.enumerated() {
            let (sample, key) = (samples[index], record.contentKey)
            let uuid = sample.givenUUID ?? key.uuid
            guard seenKeys.insert(key).inserted, seenUUIDs.insert(uuid).inserted else { return nil }
            let columns = SampleValueColumns(sample)
            uuids.append(uuid)
            keys.append(key.storedUUID)
            if let writerUUID = sample.givenUUID { given.append(writerUUID) }
            types.append(ids[index].type)
            starts.append(columns.start)
            ends.append(columns.end)
            offsets.append(columns.utcOffset)
            zones.append(columns.timeZone)
            values.append(columns.value)
            texts.append(columns.text)
            units.append(columns.unit)
            sourceIDs.append(ids[index].source)
            deviceIDs.append(ids[index].device)
            created.append(columns.created)
            metadata.append(columns.metadata)
            beats.append(columns.beats)
            // As the writer: every stored type gets its longest duration (instants too).
            let duration = max(0, sample.end.timeIntervalSince(sample.start))
            durations[ids[index].type] = max(durations[ids[index].type] ?? 0, duration)
        }
        self.details = details
        sources = Set(sourceIDs).sorted()
        devices = Set(deviceIDs.compactMap { $0 }).sorted()
        spanTypes = durations.keys.sorted()
        spanDurations = spanTypes.map { durations[$0]! }
        typeNames = Set(samples.map(\.type.identifier)).sorted().joined(separator: ",")
    }
}
