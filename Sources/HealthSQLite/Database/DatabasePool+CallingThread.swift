import GRDB

extension DatabasePool {
    /// A read run on the calling thread: GRDB's `async` read hands the closure to a reader's
    /// queue and resumes the task afterwards — two thread switches, which cost more than
    /// the read itself for the point lookups every HTTP request makes (token, consent, a
    /// week of days; a third of the server's CPU under load, docs/benchmarks.md). Only for
    /// short indexed reads: the task's thread is held for the read's duration, as it would
    /// be by any computation of that length. A reader is taken from the pool as for any read.
    public func readOnCallingThread<T>(_ value: (Database) throws -> T) throws -> T {
        try read(value)
    }
}
