#ifndef CSQLITEOPTIONS_H
#define CSQLITEOPTIONS_H

/// Sets SQLite's process-wide options, which must come before SQLite's first use in the
/// process (`sqlite3_config` is variadic, so Swift cannot call it): multi-thread mode — each
/// connection is used by one thread at a time, GRDB serialises every connection it opens, so
/// SQLite's own mutex per connection is waste — and no memory statistics (a global mutex
/// taken on every allocation). Returns 0 when both are set, otherwise SQLite's code (for
/// one already in use: SQLITE_MISUSE, and nothing changes).
int healthpipe_sqlite_configure(void);

#endif
