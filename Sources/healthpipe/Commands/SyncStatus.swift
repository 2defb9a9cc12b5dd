import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthSync

struct SyncStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "The last success per type, pending and dead-letter batches, the anchors.")

    @OptionGroup var stateOptions: SyncStateOptions

    func run() async throws {
        let (state, enrolment) = try stateOptions.openEnrolled()
        print("device \(enrolment.deviceID) (\(enrolment.deviceName)) on \(enrolment.server)")
        let rows = try state.typeStates().values.sorted { $0.type.identifier < $1.type.identifier }.map { type -> [String] in
            let history =
                if let backfill = type.backfill {
                    "to \(ISO8601DateFormatter().string(from: backfill.cursor))"
                } else if let floor = type.historyFloor {
                    "done, back to \(ISO8601DateFormatter().string(from: floor))"
                } else {
                    "done, all"
                }
            return [
                type.type.identifier, type.lastSuccessAt.map { ISO8601DateFormatter().string(from: $0) } ?? "never",
                "\(type.saved)", "\(type.proposed)", "\(history) (\(type.backfillItems))",
            ]
        }
        print(
            TextTable.render([["type", "last success", "saved", "proposed", "backfill (items)"]] + rows, leftAligned: [0, 1, 4]))
        let pending = try state.outbox()
        print(
            "pending: \(pending.count) batch\(pending.count == 1 ? "" : "es"), \(pending.reduce(0) { $0 + $1.items }) items"
                + (pending.first.map { ", oldest \(ISO8601DateFormatter().string(from: $0.createdAt))" } ?? ""))
        for batch in pending where batch.attempts > 0 {
            print("  batch \(batch.sequence): \(batch.attempts) failed attempts, last: \(batch.lastError ?? "?")")
        }
        let dead = try state.deadLetters()
        print("dead letters: \(dead.count)")
        for letter in dead {
            print("  batch \(letter.sequence) (\(letter.items) items): HTTP \(letter.status): \(letter.reason)")
        }
    }
}
