import GRDB

/// One `INSERT` written as statements of up to `maxRows` rows each
/// (`INSERT … VALUES (…),(…),…`), prepared on demand for each row count.
///
/// SQLite spends about as long starting and finishing a statement as inserting a small
/// row, and an `AUTOINCREMENT` table also reads and writes `sqlite_sequence` once per
/// statement, so a 32-row statement roughly halves the cost of a bulk import.
///
/// Announce the rows with ``begin(rows:)``, then bind each through ``addRow(_:)``; a
/// statement runs as soon as its last row is bound.
struct MultiRowInsert {
    private let db: Database
    private let head: String
    private let row: String
    let maxRows: Int
    private var prepared: [PreparedInsert?]
    private var current: PreparedInsert?
    private var rowsLeftInStatement = 0
    private var rowsNotStarted = 0
    /// Rows changed by the statements run since the last ``begin(rows:)``.
    private(set) var changes = 0

    /// `head` is everything up to and including `VALUES`; `row` one row's `(?,…)`.
    init(_ db: Database, head: String, row: String, maxRows: Int) {
        self.db = db
        self.head = head
        self.row = row
        self.maxRows = maxRows
        prepared = Array(repeating: nil, count: maxRows + 1)
    }

    /// Starts `rows` new rows; every one must then be bound with ``addRow(_:)``.
    mutating func begin(rows: Int) throws {
        precondition(rowsLeftInStatement == 0, "the rows announced before were not all bound")
        rowsNotStarted = rows
        changes = 0
        try startStatement()
    }

    /// Binds the next row's parameters, in column order; runs the statement when full.
    mutating func addRow(_ bind: (inout PreparedInsert) throws -> Void) throws {
        precondition(rowsLeftInStatement > 0, "more rows than announced")
        try bind(&current!)
        rowsLeftInStatement -= 1
        if rowsLeftInStatement == 0 {
            changes += try current!.run()
            try startStatement()
        }
    }

    private mutating func startStatement() throws {
        let rows = min(rowsNotStarted, maxRows)
        guard rows > 0 else {
            current = nil
            return
        }
        rowsNotStarted -= rows
        rowsLeftInStatement = rows
        if let statement = prepared[rows] {
            current = statement
        } else {
            let values = Array(repeating: row, count: rows).joined(separator: ",")
            let statement = try PreparedInsert(db, head + " " + values)
            prepared[rows] = statement
            current = statement
        }
    }
}
