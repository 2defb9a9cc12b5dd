/*
 * What SQLite alone needs for the rows of a 150 MB import, with no parsing and no Swift:
 * 350,000 rows shaped like `sample` (ordered 16-byte content keys, both indexes) and
 * 131,250 `metadata` rows, into the store's schema, in one transaction, N rows per
 * INSERT statement. See docs/benchmarks.md ("Not met: 20x healthkit-to-sqlite").
 * `healthpipe bench import` measures the same floor in-process (InsertFloor) with the rows
 * the import stored and prints the ratio; both use the import's 16 MiB page cache (32 MiB
 * before 2026-11-26).
 *
 *   cc -O2 scripts/sqlite-floor.c -o /tmp/sqlite-floor -lsqlite3
 *   /tmp/sqlite-floor /tmp/floor.sqlite 32      # rows per statement: 1, 32, ...
 *   /tmp/sqlite-floor /tmp/floor.sqlite 32 uuid-derived   # plus a unique 16-byte `uuid`
 *   /tmp/sqlite-floor /tmp/floor.sqlite 32 uuid-random    # column: what identity costs
 * The uuid modes measure the cost of sample identity (issue 15): `uuid-derived` is the
 * content key with RFC 9562 version 8 and variant bits set (sorted like the keys, as a
 * UUID derived from an export record's key would be); `uuid-random` is what UUIDs given
 * by HealthKit look like to an index (random, version 4).
 *   /tmp/sqlite-floor /tmp/floor.sqlite 32 interleaved    # two types, alternating
 *   /tmp/sqlite-floor /tmp/floor.sqlite 32 grouped        # ... in groups of 2,048 rows
 *   NO_TYPE_INDEX=1 /tmp/sqlite-floor ...                  # without sample_type_start
 *   ONE_INDEX=1 /tmp/sqlite-floor ...                      # a new store's layout since v6: one
 *                                                          # UNIQUE (type_id, start, content_key)
 *   JOURNAL=WAL /tmp/sqlite-floor ...                      # in WAL mode (default: no journal,
 *                                                          # as an import into a new store);
 *                                                          # JOURNAL=DELETE|MEMORY, SYNC=OFF|NORMAL
 * `interleaved` alternates two types row by row, as the generated export alternates active
 * energy and distance: half the rows land in the middle of both indexes instead of at their
 * end, and the same rows cost SQLite 22-30 % more (2026-11-27, inserts + commit: 0.71-0.73 ->
 * 0.89-0.92 s; `grouped` 0.79-0.83 s). `healthpipe bench import` therefore also replays the
 * import's own rows in its order.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *head, const char *row, int rows) {
    size_t size = strlen(head) + (strlen(row) + 1) * rows + 1;
    char *sql = malloc(size);
    strcpy(sql, head);
    for (int r = 0; r < rows; r++) {
        if (r) strcat(sql, ",");
        strcat(sql, row);
    }
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, 0) != SQLITE_OK) {
        fprintf(stderr, "%s\n", sqlite3_errmsg(db));
        exit(1);
    }
    free(sql);
    return statement;
}

static void run(sqlite3 *db, sqlite3_stmt *statement) {
    if (sqlite3_step(statement) != SQLITE_DONE) {
        fprintf(stderr, "%s\n", sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_reset(statement);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s DB ROWS_PER_STATEMENT [uuid-derived|uuid-random|interleaved|grouped]\n", argv[0]);
        return 2;
    }
    const int total = 350000, perStatement = atoi(argv[2]);
    /* Rows of one type before the other type's: 0 for one type after another. */
    const int group = argc != 4 ? 0 : strcmp(argv[3], "interleaved") == 0 ? 1 : strcmp(argv[3], "grouped") == 0 ? 2048 : 0;
    const int interleaved = group > 0;
    const int uuidMode = argc == 4 && !interleaved
        ? (strcmp(argv[3], "uuid-derived") == 0 ? 1 : strcmp(argv[3], "uuid-random") == 0 ? 2 : -1) : 0;
    if (uuidMode < 0) {
        fprintf(stderr, "the third argument is uuid-derived, uuid-random, interleaved or grouped\n");
        return 2;
    }
    unlink(argv[1]);
    sqlite3 *db;
    sqlite3_open(argv[1], &db);
    const int oneIndex = getenv("ONE_INDEX") != 0;
    sqlite3_exec(db,
        "PRAGMA page_size=8192; PRAGMA cache_size=-16384;"
        "CREATE TABLE sample (anchor INTEGER PRIMARY KEY AUTOINCREMENT, type_id INTEGER NOT NULL,"
        " start REAL NOT NULL, end REAL NOT NULL, utc_offset INTEGER, time_zone TEXT, value REAL, value_text TEXT,"
        " unit TEXT, source_id INTEGER NOT NULL, device_id INTEGER, creation_date REAL, import_id INTEGER,"
        " content_key BLOB NOT NULL);"
        "CREATE TABLE metadata (owner_kind INTEGER NOT NULL, owner INTEGER NOT NULL, position INTEGER NOT NULL,"
        " key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (owner_kind, owner, position)) WITHOUT ROWID;",
        0, 0, 0);
    if (oneIndex) {
        sqlite3_exec(db, "CREATE UNIQUE INDEX sample_type_start_key ON sample(type_id, start, content_key);", 0, 0, 0);
    } else {
        sqlite3_exec(db, "CREATE UNIQUE INDEX sample_key ON sample(content_key);", 0, 0, 0);
        if (!getenv("NO_TYPE_INDEX")) sqlite3_exec(db, "CREATE INDEX sample_type_start ON sample(type_id, start);", 0, 0, 0);
    }
    /* An import into a new store writes it without a journal (PrivateStoreBuild); JOURNAL=WAL
       measures a store's own journal, as every import did before 2026-11-27; any other
       journal mode SQLite knows (DELETE, MEMORY, ...) with SYNC=OFF|NORMAL|FULL. */
    const char *journal = getenv("JOURNAL") ? getenv("JOURNAL") : "OFF";
    const char *sync = getenv("SYNC") ? getenv("SYNC") : strcmp(journal, "OFF") == 0 ? "OFF" : "NORMAL";
    char pragmas[128];
    snprintf(pragmas, sizeof pragmas, "PRAGMA journal_mode=%s; PRAGMA synchronous=%s;", journal, sync);
    sqlite3_exec(db, pragmas, 0, 0, 0);
    if (uuidMode) sqlite3_exec(db, "ALTER TABLE sample ADD COLUMN uuid BLOB; CREATE UNIQUE INDEX sample_uuid ON sample(uuid);", 0, 0, 0);
    sqlite3_stmt *samples = prepare(db,
        uuidMode ? "INSERT OR IGNORE INTO sample (anchor, type_id, start, end, utc_offset, time_zone, value, value_text,"
                   " unit, source_id, device_id, creation_date, content_key, uuid) VALUES "
                 : "INSERT OR IGNORE INTO sample (anchor, type_id, start, end, utc_offset, time_zone, value, value_text,"
                   " unit, source_id, device_id, creation_date, content_key) VALUES ",
        uuidMode ? "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)" : "(?,?,?,?,?,?,?,?,?,?,?,?,?)", perStatement);
    unsigned long long random = 88172645463325252ULL;
    /* Three rows in eight carry one metadata entry; with a multiple of 8 rows per statement
       their metadata goes in one statement too, as the importer does. */
    int metadataRows = perStatement % 8 == 0 ? perStatement / 8 * 3 : 1;
    sqlite3_stmt *metadata = prepare(db, "INSERT INTO metadata VALUES ", "(0,?,0,?,?)", metadataRows);
    double started = now();
    sqlite3_exec(db, "BEGIN", 0, 0, 0);
    for (int first = 0; first + perStatement <= total; first += perStatement) {
        int parameter = 0;
        for (int row = first; row < first + perStatement; row++) {
            unsigned char key[16];
            int type = interleaved ? row / 20000 * 2 + row / group % 2 : row / 20000;
            long long start = 1700000000LL + row * 60LL;
            key[0] = type >> 8;
            key[1] = type;
            for (int b = 0; b < 6; b++) key[2 + b] = (start >> (40 - 8 * b)) & 0xff;
            for (int b = 8; b < 16; b++) key[b] = ((unsigned)row * 2654435761u) >> (b % 4 * 8);
            sqlite3_bind_int64(samples, ++parameter, row + 1);
            sqlite3_bind_int64(samples, ++parameter, type);
            sqlite3_bind_double(samples, ++parameter, (double)start);
            sqlite3_bind_double(samples, ++parameter, (double)start + 30);
            sqlite3_bind_int64(samples, ++parameter, 3600);
            sqlite3_bind_null(samples, ++parameter);
            sqlite3_bind_double(samples, ++parameter, 42.5);
            sqlite3_bind_null(samples, ++parameter);
            sqlite3_bind_text(samples, ++parameter, "count/min", -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(samples, ++parameter, 3);
            sqlite3_bind_int64(samples, ++parameter, 2);
            sqlite3_bind_double(samples, ++parameter, (double)start + 100);
            sqlite3_bind_blob(samples, ++parameter, key, 16, SQLITE_TRANSIENT);
            if (uuidMode) {
                unsigned char uuid[16];
                for (int b = 0; b < 16; b++) {
                    if (uuidMode == 1) {
                        uuid[b] = key[b];
                    } else {
                        random ^= random << 13; random ^= random >> 7; random ^= random << 17;
                        uuid[b] = random >> 24;
                    }
                }
                uuid[6] = (uuid[6] & 0x0f) | (uuidMode == 1 ? 0x80 : 0x40);
                uuid[8] = (uuid[8] & 0x3f) | 0x80;
                sqlite3_bind_blob(samples, ++parameter, uuid, 16, SQLITE_TRANSIENT);
            }
        }
        run(db, samples);
        parameter = 0;
        for (int row = first; row < first + perStatement; row++) {
            if (row % 8 >= 3) continue;
            sqlite3_bind_int64(metadata, ++parameter, row + 1);
            sqlite3_bind_text(metadata, ++parameter, "HKMetadataKeyHeartRateMotionContext", -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(metadata, ++parameter, "1", -1, SQLITE_TRANSIENT);
            if (parameter == 3 * metadataRows) {
                run(db, metadata);
                parameter = 0;
            }
        }
    }
    double inserted = now();
    sqlite3_exec(db, "COMMIT", 0, 0, 0);
    double committed = now();
    printf("%d rows per statement: inserts %.3f s, commit %.3f s\n", perStatement, inserted - started,
           committed - inserted);
    sqlite3_close(db);
    return 0;
}
