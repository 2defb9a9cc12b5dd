import CSQLiteOptions

/// SQLite's process-wide options for a process whose connections are all GRDB's: multi-thread
/// mode (GRDB serialises each connection, so SQLite's mutex per connection and call is waste)
/// and no memory statistics (a global mutex on every allocation). Together a twelfth of an
/// import's writer thread went to them (issue 37 §1).
public enum SQLiteProcessOptions {
    /// Sets the options. Call it once, first thing in `main`, before any thread uses SQLite:
    /// `sqlite3_config` is not thread-safe. `false` when SQLite was in use already (nothing
    /// changes then; the defaults are as safe, only slower).
    @discardableResult
    public static func configureAtStart() -> Bool { healthpipe_sqlite_configure() == 0 }
}
