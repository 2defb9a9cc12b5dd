/// The health store's tables in PostgreSQL: every user's samples in one set of tables,
/// each row keyed by its user (docs/store.md §PostgreSQL). Migrations only ever append;
/// they share `schema_migrations` with the server's own tables, under ids `health-v…`.
///
/// Instants are `DOUBLE PRECISION` seconds since 1970 (UTC), as in the SQLite store, so
/// that a sample reads back bit for bit what was written. Content keys are 16 bytes, kept
/// in `uuid` columns (a fixed 16-byte type, compared as bytes; not RFC 9562 UUIDs).
enum PostgresHealthSchema {
    static let migrations: [PostgresPool.Migration] = [
        PostgresPool.Migration(
            id: "health-v1",
            statements: [
                // One row per user with samples: its last anchor, and the lock each write
                // transaction takes first, so one user's writes commit in anchor order.
                """
                CREATE TABLE health_store (
                    user_id TEXT PRIMARY KEY,
                    last_anchor BIGINT NOT NULL DEFAULT 0
                )
                """,
                // Names interned for every user, never changed (sources and devices are
                // deleted with their last user since health-v4; types stay).
                """
                CREATE TABLE health_sample_type (
                    id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE health_source (
                    id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    name TEXT NOT NULL,
                    version TEXT NOT NULL,
                    UNIQUE (name, version)
                )
                """,
                """
                CREATE TABLE health_device (
                    id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    key TEXT NOT NULL UNIQUE,
                    name TEXT, manufacturer TEXT, model TEXT, hardware TEXT, software TEXT, firmware TEXT,
                    local_identifier TEXT, udi_device_identifier TEXT, creation_date TEXT
                )
                """,
                // The longest duration stored per user and type: bounds range scans below.
                """
                CREATE TABLE health_type_span (
                    user_id TEXT NOT NULL,
                    type_id INTEGER NOT NULL,
                    max_duration DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (user_id, type_id)
                )
                """,
                // Every sample of every family, one row: metadata and HRV beats inline (JSON
                // arrays, in order), a workout's or audiogram's details as JSON.
                """
                CREATE TABLE health_sample (
                    user_id TEXT NOT NULL,
                    uuid UUID NOT NULL,
                    anchor BIGINT NOT NULL,
                    content_key UUID NOT NULL,
                    type_id INTEGER NOT NULL,
                    start DOUBLE PRECISION NOT NULL,
                    "end" DOUBLE PRECISION NOT NULL,
                    utc_offset INTEGER,
                    time_zone TEXT,
                    value DOUBLE PRECISION,
                    value_text TEXT,
                    unit TEXT,
                    source_id INTEGER NOT NULL,
                    device_id INTEGER,
                    creation_date DOUBLE PRECISION,
                    metadata JSONB,
                    beats JSONB,
                    details JSONB,
                    PRIMARY KEY (user_id, uuid)
                )
                """,
                "CREATE UNIQUE INDEX health_sample_key ON health_sample (user_id, content_key)",
                "CREATE INDEX health_sample_range ON health_sample (user_id, type_id, start)",
                "CREATE INDEX health_sample_feed ON health_sample (user_id, type_id, anchor)",
                """
                CREATE TABLE health_tombstone (
                    user_id TEXT NOT NULL,
                    anchor BIGINT NOT NULL,
                    uuid UUID NOT NULL,
                    type_id INTEGER NOT NULL,
                    PRIMARY KEY (user_id, anchor)
                )
                """,
                "CREATE INDEX health_tombstone_feed ON health_tombstone (user_id, type_id, anchor)",
                "CREATE INDEX health_tombstone_uuid ON health_tombstone (user_id, uuid)",
                """
                CREATE TABLE health_correlation_member (
                    user_id TEXT NOT NULL,
                    correlation UUID NOT NULL,
                    member UUID NOT NULL,
                    PRIMARY KEY (user_id, correlation, member)
                )
                """,
                "CREATE INDEX health_correlation_member_member ON health_correlation_member (user_id, member)",
                """
                CREATE TABLE health_activity_summary (
                    user_id TEXT NOT NULL,
                    date TEXT NOT NULL,
                    active_energy_burned DOUBLE PRECISION, active_energy_burned_goal DOUBLE PRECISION,
                    active_energy_burned_unit TEXT,
                    apple_move_time DOUBLE PRECISION, apple_move_time_goal DOUBLE PRECISION,
                    apple_exercise_time DOUBLE PRECISION, apple_exercise_time_goal DOUBLE PRECISION,
                    apple_stand_hours DOUBLE PRECISION, apple_stand_hours_goal DOUBLE PRECISION,
                    as_of DOUBLE PRECISION,
                    PRIMARY KEY (user_id, date)
                )
                """,
                // Clinical records, ECGs and elements kept as read: the record as JSON.
                """
                CREATE TABLE health_record (
                    user_id TEXT NOT NULL,
                    content_key UUID NOT NULL,
                    family TEXT NOT NULL,
                    received DOUBLE PRECISION,
                    body JSONB NOT NULL,
                    PRIMARY KEY (user_id, content_key)
                )
                """,
                """
                CREATE TABLE health_characteristic (
                    user_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value TEXT NOT NULL,
                    as_of DOUBLE PRECISION,
                    PRIMARY KEY (user_id, key)
                )
                """,
                """
                CREATE TABLE health_import_run (
                    user_id TEXT NOT NULL,
                    id BIGINT GENERATED ALWAYS AS IDENTITY,
                    fingerprint TEXT NOT NULL,
                    run JSONB NOT NULL,
                    PRIMARY KEY (user_id, id)
                )
                """,
                "CREATE INDEX health_import_run_fingerprint ON health_import_run (user_id, fingerprint)",
            ]),
        // The app's own records per user (docs/context.md), as migration v2 of the SQLite store.
        // A planned workout keeps the id it had in a user's SQLite file when migrated (ids are
        // per user there), hence (user_id, id) and an identity that a migration may override.
        PostgresPool.Migration(
            id: "health-v2",
            statements: [
                """
                CREATE TABLE health_daily_log (
                    user_id TEXT NOT NULL,
                    local_date TEXT NOT NULL,
                    energy INTEGER CHECK (energy BETWEEN 1 AND 5),
                    mood INTEGER CHECK (mood BETWEEN 1 AND 5),
                    stress INTEGER CHECK (stress BETWEEN 1 AND 5),
                    note TEXT,
                    PRIMARY KEY (user_id, local_date)
                )
                """,
                """
                CREATE TABLE health_planned_workout (
                    user_id TEXT NOT NULL,
                    id BIGINT GENERATED BY DEFAULT AS IDENTITY,
                    name TEXT NOT NULL,
                    scheduled_at DOUBLE PRECISION NOT NULL,
                    duration_minutes INTEGER,
                    started_at DOUBLE PRECISION,
                    finished_at DOUBLE PRECISION,
                    PRIMARY KEY (user_id, id)
                )
                """,
                "CREATE INDEX health_planned_workout_scheduled ON health_planned_workout (user_id, scheduled_at)",
                """
                CREATE TABLE health_coach_interaction (
                    user_id TEXT NOT NULL,
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    at DOUBLE PRECISION NOT NULL,
                    kind TEXT NOT NULL
                )
                """,
                "CREATE INDEX health_coach_interaction_at ON health_coach_interaction (user_id, at)",
            ]),
        PostgresPool.Migration(id: "health-v3", statements: partitionedSamples),
        // Which users use each source and device (issue 32, P4): a name is deleted with the
        // last user who used it (``InternedNames``). Looked up by name (the primary key) when
        // deleting names, and by user when deleting a user. Uses of the samples stored
        // before are filled in; names no one uses any more are deleted by the next user
        // deletion, which writers of this version know how to survive.
        PostgresPool.Migration(
            id: "health-v4",
            statements: [
                """
                CREATE TABLE health_source_user (
                    source_id INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    PRIMARY KEY (source_id, user_id)
                )
                """,
                "CREATE INDEX health_source_user_user ON health_source_user (user_id)",
                """
                CREATE TABLE health_device_user (
                    device_id INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    PRIMARY KEY (device_id, user_id)
                )
                """,
                "CREATE INDEX health_device_user_user ON health_device_user (user_id)",
                """
                INSERT INTO health_source_user (source_id, user_id)
                SELECT DISTINCT source_id, user_id FROM health_sample
                """,
                """
                INSERT INTO health_device_user (device_id, user_id)
                SELECT DISTINCT device_id, user_id FROM health_sample WHERE device_id IS NOT NULL
                """,
            ]),
        // Spans whose days must be computed again, written by the transaction that changes
        // their samples and deleted once the days are stored (issue 32, H3).
        PostgresPool.Migration(
            id: "health-v5",
            statements: [
                """
                CREATE TABLE health_dirty_span (
                    user_id TEXT NOT NULL,
                    id BIGINT GENERATED ALWAYS AS IDENTITY,
                    start DOUBLE PRECISION NOT NULL,
                    "end" DOUBLE PRECISION NOT NULL,
                    zone TEXT,
                    PRIMARY KEY (user_id, id)
                )
                """
            ]),
        // A write of new samples in one statement (issue 37 §2).
        PostgresPool.Migration(id: "health-v6", statements: [addNewSamples]),
    ]

    /// How many hash partitions `health_sample` has (fixed when `health-v3` runs).
    static let samplePartitions = 32

    /// `health-v3`: `health_sample` split into ``samplePartitions`` partitions by a hash of
    /// `user_id`, with the same columns, keys and indexes (each a per-partition index: every
    /// key begins with `user_id`, and every statement names one user, so each touches one
    /// partition). A user's rows then share their heap with about 1/32 of the other users'
    /// rather than all of them: fewer pages per range read (docs/store.md §PostgreSQL).
    /// Rows stored before move over ordered by user and time, so each user's rows start
    /// out contiguous.
    static var partitionedSamples: [String] {
        let partitions = (0..<samplePartitions).map { remainder in
            """
            CREATE TABLE health_sample_p\(remainder) PARTITION OF health_sample
                FOR VALUES WITH (MODULUS \(samplePartitions), REMAINDER \(remainder))
            """
        }
        return [
            "ALTER TABLE health_sample RENAME TO health_sample_v1",
            "ALTER TABLE health_sample_v1 RENAME CONSTRAINT health_sample_pkey TO health_sample_v1_pkey",
            "ALTER INDEX health_sample_key RENAME TO health_sample_v1_key",
            "ALTER INDEX health_sample_range RENAME TO health_sample_v1_range",
            "ALTER INDEX health_sample_feed RENAME TO health_sample_v1_feed",
            "CREATE TABLE health_sample (LIKE health_sample_v1 INCLUDING DEFAULTS) PARTITION BY HASH (user_id)",
        ] + partitions + [
            "ALTER TABLE health_sample ADD PRIMARY KEY (user_id, uuid)",
            "CREATE UNIQUE INDEX health_sample_key ON health_sample (user_id, content_key)",
            "CREATE INDEX health_sample_range ON health_sample (user_id, type_id, start)",
            "CREATE INDEX health_sample_feed ON health_sample (user_id, type_id, anchor)",
            "INSERT INTO health_sample SELECT * FROM health_sample_v1 ORDER BY user_id, start, anchor",
            "DROP TABLE health_sample_v1",
        ]
    }
}
