import Foundation
import GRDB
import GRDBSQLite

/// The columns of a statement's current row, read straight from SQLite. The sample read
/// path decodes tens of thousands of rows per query; GRDB's generic decoding and its copy
/// of every row were most of that cost (`healthpipe bench healthkit`).
struct StatementColumns {
    private let handle: SQLiteStatement
    /// The last string read from each column by ``repeatedText(_:)``.
    private var previous: [Int: String] = [:]

    init(_ statement: Statement) { handle = statement.sqliteStatement }

    func isNull(_ index: Int) -> Bool { sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL }

    func double(_ index: Int) -> Double { sqlite3_column_double(handle, Int32(index)) }

    func optionalDouble(_ index: Int) -> Double? { isNull(index) ? nil : double(index) }

    func int64(_ index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    func optionalInt64(_ index: Int) -> Int64? { isNull(index) ? nil : int64(index) }

    /// The text of a column; `nil` for NULL.
    func text(_ index: Int) -> String? {
        guard let bytes = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The text of a column whose values repeat from row to row (a type, a source, a unit):
    /// the previous row's string when the bytes are the same, so that rows share one copy.
    mutating func repeatedText(_ index: Int) -> String? {
        guard let bytes = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, Int32(index))))
        if let last = previous[index], Self.same(last, buffer) { return last }
        let text = String(decoding: buffer, as: UTF8.self)
        previous[index] = text
        return text
    }

    /// `true` when `text`'s UTF-8 is `bytes` (compared with `memcmp`: a generic comparison
    /// cost as much as making the string).
    private static func same(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return text.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, base, bytes.count) == 0 }
            ?? text.utf8.elementsEqual(bytes)
    }

    /// The bytes of a column, in place: valid until the statement steps. `nil` for NULL
    /// (and for an empty blob, which SQLite cannot tell from NULL here).
    func bytes(_ index: Int) -> UnsafeRawBufferPointer? {
        guard let bytes = sqlite3_column_blob(handle, Int32(index)) else { return nil }
        return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, Int32(index))))
    }
}
