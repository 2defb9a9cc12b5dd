import Foundation
import HealthCore
import HealthServerRecords
import HealthWire
import Logging

/// A device's sealed batch taken in (docs/sync.md), without HTTP: the device is the
/// caller's and live, the key is one of its keys and not retired past its grace, the
/// sequence follows the last; the envelope opens and its items decode; the token may write
/// their kinds; the additions and deletions apply in order in one transaction with the
/// sequence advanced; the days touched are pending (``DayQueue``). Every refusal is a ``Problem`` that
/// leaves the store unchanged and names no health value; one batch of a device runs at a
/// time (a second is a 409).
///
/// The route (`POST /v1/sync/batches`) adds what is HTTP's: the body, the `Idempotency-Key`
/// (the batch id) and its replay.
struct SyncBatchIntake: Sendable {
    let configuration: ServerConfiguration
    let repositories: ServerRepositories
    /// Where the person goes once the batch commits: their days are computed after the answer.
    let days: DayQueue
    let once: RequestOnce
    let logger: Logger

    /// Takes `envelope` from `user`'s device; `zone`, the request's `tz`, may set their home zone.
    func receive(_ envelope: SyncEnvelope, user: User, zone: TimeZone?) async throws -> SyncBatchAnswer {
        // One batch of a device at a time: the device (its last sequence) is read, checked
        // and advanced under the slot.
        do {
            return try await once.exclusively("device\u{0}" + user.id + "\u{0}" + envelope.deviceID) {
                let device = try await syncDevice(envelope, user: user)
                return try await apply(envelope, from: device, user: user, zone: zone)
            }
        } catch RequestOnce.Refusal.inProgress {
            throw Problem(
                .conflict, "Batch in progress",
                detail: "another batch of this device is being processed; send this one when it has been answered")
        }
    }

    /// The caller's live device that sent `envelope`, or the 403 that says why not.
    private func syncDevice(_ envelope: SyncEnvelope, user: User) async throws -> SyncDevice {
        // Unknown and someone else's are one answer: device ids are not for probing.
        guard let device = try await repositories.devices.device(id: envelope.deviceID), device.userID == user.id else {
            throw Problem(
                .forbidden, "Unknown device",
                detail: "device \(envelope.deviceID.prefix(64)) is not enrolled for this token; enrol with POST /v1/devices")
        }
        guard device.revokedAt == nil else {
            throw Problem(.forbidden, "Device revoked", detail: "device \(device.id) is revoked; enrol a new device")
        }
        return device
    }

    /// The key `envelope` names, if the device has it and it is still accepted.
    private func syncKey(_ envelope: SyncEnvelope, device: SyncDevice) async throws -> SyncKey {
        let keys = try await repositories.devices.keys(deviceID: device.id)
        guard let stored = keys.first(where: { $0.id == envelope.keyID }) else {
            throw Problem(
                .forbidden, "Unknown key", detail: "key \(envelope.keyID.prefix(100)) is not a key of device \(device.id)",
                pointer: "/key_id")
        }
        if let retired = stored.retiredAt, configuration.clock() > retired.addingTimeInterval(configuration.keyGracePeriod) {
            throw Problem(
                .forbidden, "Key retired",
                detail: "key \(stored.id) was replaced more than \(Int(configuration.keyGracePeriod / 3600)) hours ago; "
                    + "seal new batches with the device's current key", pointer: "/key_id")
        }
        return try SyncKey(id: stored.id, secret: stored.secret)
    }

    private func apply(
        _ envelope: SyncEnvelope, from device: SyncDevice, user: User, zone: TimeZone?
    ) async throws
        -> SyncBatchAnswer
    {
        // A sequence at or below the last accepted one is a replay — unless it is the last
        // batch itself, sent again because its answer was lost.
        let resent = envelope.sequence == device.lastSequence && envelope.batchID == device.lastBatchID
        guard envelope.sequence > device.lastSequence || resent else {
            throw Self.sequenceReplayed(envelope, after: device.lastSequence)
        }
        let key = try await syncKey(envelope, device: device)
        let items = try await offload { [configuration] in
            let content = try Self.open(
                envelope, userID: user.id, key: key, limit: configuration.maxBatchPlaintextBytes,
                maxItems: configuration.maxBatchItems)
            return try Self.records(content.items)
        }
        // The last batch again, its remembered answer gone (24 hours on, a crash before it was
        // kept) or its key written in other letters: acknowledged, never applied again. Applied,
        // it brought back the samples deleted since it was (helper-62's replay).
        if resent {
            var answer = SyncBatchAnswer(batchID: envelope.batchID, sequence: envelope.sequence)
            answer.alreadyApplied = true
            return answer
        }
        // The kinds it adds are known now, and those its tombstones name: a 403 for a kind the
        // token may not write whether or not such a sample is stored (checked only once
        // found, it was a 403 for a stored sample and `unknown` for one never stored, telling
        // a coach's token what the person keeps). The store then refuses a tombstone whose
        // sample is stored as another type (422).
        try WritePermission.require(
            records: items.flatMap { item -> [HealthRecord] in
                guard case .add(let records) = item else { return [] }
                return records
            }, user: user)
        try WritePermission.require(
            Set(
                items.flatMap { item -> [HealthDataCategory] in
                    guard case .delete(_, let types) = item else { return [] }
                    return types.values.map(HealthDataCategory.init)
                }), user: user)
        // Under the user's lock: a deletion of the user waits for the batch, or it finds the
        // user gone (401).
        return try await repositories.writing(user.id) { database in
            var answer = SyncBatchAnswer(batchID: envelope.batchID, sequence: envelope.sequence)
            // The sequence first: checked and advanced in the batch's transaction where the
            // store can (PostgreSQL), so two batches with one sequence never both commit.
            var writes: [HealthWrite] = [
                .advanceSequence(
                    deviceID: device.id, sequence: envelope.sequence, batchID: envelope.batchID, at: configuration.clock()),
                .markDirty(zone: zone?.identifier),
            ]
            for item in items {
                switch item {
                case .add(let records): writes.append(.records(records))
                case .delete(let uuids, let types): writes.append(.delete(uuids, types: types))
                }
            }
            let written: HealthWriteReport
            do {
                written = try await database.apply(writes, check: WritePermission.deletionCheck(user))
            } catch let error as SampleIdentityError {
                throw Problem.unprocessable(error.description, pointer: "/ciphertext")
            } catch is SequenceRefused {
                throw Self.sequenceReplayed(envelope, after: device.lastSequence)
            }
            for report in written.deletions {
                answer.deleted += report.deleted.count
                answer.unknown += report.unknown.count
            }
            answer.added = written.added
            answer.duplicates = written.duplicates
            answer.updated = written.updated > 0 ? written.updated : nil
            // SQLite: `device` is in server.sqlite, the samples in the user's file (no
            // transaction spans both): advanced after the commit, and checked. With one server
            // per folder (DataFolderLock) and the device's slot, a refusal here means a broken
            // invariant; a resend of this batch is accepted and applies nothing new.
            var advanced = written.sequenceAdvanced
            if advanced == nil {
                advanced = try await repositories.devices.advanceSequence(
                    deviceID: device.id, to: envelope.sequence, batchID: envelope.batchID, at: configuration.clock())
            }
            guard advanced == true else {
                logger.error(
                    "sync batch committed but its sequence was taken meanwhile",
                    metadata: ["device": "\(device.id)", "sequence": "\(envelope.sequence)"])
                throw Self.sequenceReplayed(envelope, after: device.lastSequence)
            }
            if answer.added > 0 || answer.deleted > 0 {
                days.add(user.id)
                answer.daysPending = true
            }
            return answer
        }
    }

    /// The 422 of a batch whose sequence is not after `last` (read when the batch arrived).
    private static func sequenceReplayed(_ envelope: SyncEnvelope, after last: Int64) -> Problem {
        Problem(
            .unprocessableContent, "Sequence replayed",
            detail: "sequence \(envelope.sequence) is not after \(last), the last this device sent: "
                + "a replayed or reordered batch", pointer: "/sequence")
    }

    /// The decrypted batch, or the 4xx naming the check that failed.
    /// Items are counted in the plaintext before any is decoded: a small batch inflating to
    /// a million tiny items is refused at the cost of its bytes, not of a million values.
    private static func open(
        _ envelope: SyncEnvelope, userID: String, key: SyncKey, limit: Int, maxItems: Int
    ) throws -> SyncBatchContent {
        let plaintext: Data
        do {
            plaintext = try envelope.open(userID: userID, key: key, limit: limit)
        } catch let error as SyncEnvelopeError {
            let pointer: String
            switch error.kind {
            // The field the check named: `compression: "none"` pointed at `/v`, a short
            // ciphertext at `/nonce`.
            case .unsupported, .malformed: pointer = "/" + (error.field ?? "v")
            case .wrongKey: pointer = "/key_id"
            case .authenticationFailed, .notInflatable: pointer = "/ciphertext"
            case .checksumMismatch: pointer = "/checksum"
            }
            throw Problem(.unprocessableContent, "Envelope refused", detail: error.description, pointer: pointer)
        }
        guard SyncBatchContent.itemCount(in: plaintext, stoppingAfter: maxItems) <= maxItems else {
            throw Problem.unprocessable(
                "a batch carries at most \(maxItems) items; seal smaller batches", pointer: "/ciphertext")
        }
        // The body's checks, on the decrypted batch: a key twice, a NUL character.
        try HealthRequestDecoder.refuseUnsafeJSON(in: plaintext, under: "/ciphertext")
        do {
            return try SampleWire.decoder().decode(SyncBatchContent.self, from: plaintext)
        } catch let error as DecodingError {
            // The decrypted batch's own problem, pointed into it (never a value).
            throw Problem(
                .unprocessableContent, "Batch unreadable", detail: "the decrypted batch does not decode as a batch",
                pointer: "/ciphertext" + Problem.pointer(Self.codingPath(error)))
        }
    }

    private static func codingPath(_ error: DecodingError) -> [any CodingKey] {
        switch error {
        case .keyNotFound(let key, let context): context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context.codingPath
        @unknown default: []
        }
    }

    /// The batch's items as writes, in order: consecutive additions and consecutive
    /// deletions each grouped into one.
    private static func records(_ items: [SyncItem]) throws -> [SyncWrite] {
        var writes: [SyncWrite] = []
        var additions: [HealthRecord] = []
        var deletions: [UUID] = []
        var types: [UUID: SampleType] = [:]
        for (index, item) in items.enumerated() {
            switch item {
            case .add(let wire):
                if !deletions.isEmpty { writes.append(.delete(deletions, types: types)) }
                deletions = []
                types = [:]
                // A workout travels whole: its events, statistics and routes with it.
                additions.append(try wire.record(pointer: "/ciphertext/items/\(index)/sample"))
            case .delete(let uuid, let type):
                guard Self.isTypeIdentifier(type) else {
                    throw Problem.unprocessable(
                        "type must be a HealthKit type identifier", pointer: "/ciphertext/items/\(index)/type")
                }
                if !additions.isEmpty { writes.append(.add(additions)) }
                additions = []
                // The item names the sample's type: a UUID stored as another type is refused.
                if let named = types.updateValue(SampleType(type), forKey: uuid), named.identifier != type {
                    throw Problem.unprocessable(
                        "the batch deletes this UUID as two types", pointer: "/ciphertext/items/\(index)/type")
                }
                deletions.append(uuid)
            }
        }
        if !additions.isEmpty { writes.append(.add(additions)) }
        if !deletions.isEmpty { writes.append(.delete(deletions, types: types)) }
        return writes
    }

    /// `HK…` identifiers and Health Auto Export's `HAE:<name>`: printable, at most 200 characters.
    private static func isTypeIdentifier(_ text: String) -> Bool {
        (text.hasPrefix("HK") || text.hasPrefix("HAE:")) && text.count <= 200
            && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }
}

/// One write of a batch, in order.
private enum SyncWrite: Sendable {
    /// Samples, and workouts whole.
    case add([HealthRecord])
    /// The UUIDs and the type each item named.
    case delete([UUID], types: [UUID: SampleType])
}
