import Foundation
import GRDB
import GRDBSQLite
import HealthCore

/// A prepared statement bound through the SQLite C API: bulk imports write millions of
/// rows, and one reusable statement with direct binds is several times faster than
/// building argument arrays per row.
struct PreparedInsert {
    private let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }
    private let connection: OpaquePointer
    private var index: Int32 = 0

    init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        connection = db.sqliteConnection!
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Ready for the next row. Every call site binds every parameter, so bindings are not
    /// cleared.
    mutating func reset() {
        sqlite3_reset(handle)
        index = 0
    }

    mutating func bind(_ value: Double?) {
        index += 1
        if let value, !value.isNaN { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    mutating func bind(_ value: Int64?) {
        index += 1
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    mutating func bind(_ value: Int?) { bind(value.map(Int64.init)) }

    mutating func bind(_ value: Date?) { bind(value?.timeIntervalSince1970) }

    mutating func bind(_ value: String?) {
        index += 1
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        let position = index
        let statement = handle
        value.withUTF8 { utf8 in
            let raw = UnsafeRawBufferPointer(utf8)
            if let base = raw.baseAddress {
                _ = sqlite3_bind_text(
                    statement, position, base.assumingMemoryBound(to: CChar.self), Int32(raw.count),
                    PreparedInsert.transient)
            } else {
                _ = sqlite3_bind_text(statement, position, "", 0, PreparedInsert.transient)
            }
        }
    }

    mutating func bind(_ bytes: [UInt8]) {
        index += 1
        bytes.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), PreparedInsert.transient)
        }
    }

    /// Binds a content key as its 16 big-endian bytes, without building an array.
    mutating func bind(_ key: ContentKey) {
        index += 1
        let words = (key.high.bigEndian, key.low.bigEndian)
        withUnsafeBytes(of: words) { raw in
            _ = sqlite3_bind_blob(handle, index, raw.baseAddress, 16, PreparedInsert.transient)
        }
    }

    /// Binds a UUID as its 16 bytes, or NULL.
    mutating func bind(_ uuid: UUID?) {
        index += 1
        guard let uuid else {
            _ = sqlite3_bind_null(handle, index)
            return
        }
        withUnsafeBytes(of: uuid.uuid) { raw in
            _ = sqlite3_bind_blob(handle, index, raw.baseAddress, 16, PreparedInsert.transient)
        }
    }

    /// Runs the statement; returns the number of rows it changed.
    @discardableResult
    mutating func run() throws -> Int {
        assert(index == sqlite3_bind_parameter_count(handle), "every parameter must be bound for every row")
        defer { reset() }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
        return Int(sqlite3_changes(connection))
    }

    /// Runs a query and returns the first column of its first row as an integer.
    mutating func fetchInt() throws -> Int64? {
        assert(index == sqlite3_bind_parameter_count(handle), "every parameter must be bound for every row")
        defer { reset() }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return sqlite3_column_int64(handle, 0) }
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
        return nil
    }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(connection) }
}
