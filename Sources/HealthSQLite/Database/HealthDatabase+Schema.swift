import GRDB

extension HealthDatabase {
    /// The schema. Migrations only ever append; table names are strings, never Swift types.
    ///
    /// Instants are REAL seconds since 1970 (UTC). Every stored sample — quantity, category,
    /// correlation, workout, audiogram — is one `sample` row whose `anchor` increases
    /// monotonically (AUTOINCREMENT: never reused) and serves anchored change queries;
    /// `content_key` (16 bytes) makes every element family idempotent to re-import, and
    /// derives a sample's UUID unless `uuid` holds one its writer gave (v4).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sample_type (
                        id INTEGER PRIMARY KEY,
                        identifier TEXT NOT NULL UNIQUE,
                        kind TEXT NOT NULL,
                        max_duration REAL NOT NULL DEFAULT 0
                    );
                    CREATE TABLE source (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        version TEXT NOT NULL DEFAULT '',
                        UNIQUE (name, version)
                    );
                    CREATE TABLE device (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        name TEXT, manufacturer TEXT, model TEXT, hardware TEXT, software TEXT,
                        firmware TEXT, local_identifier TEXT, udi_device_identifier TEXT, creation_date TEXT,
                        device_class TEXT NOT NULL
                    );
                    CREATE TABLE import_run (
                        id INTEGER PRIMARY KEY,
                        fingerprint TEXT NOT NULL,
                        path TEXT NOT NULL,
                        input_kind TEXT NOT NULL,
                        started_at REAL NOT NULL,
                        finished_at REAL NOT NULL,
                        locale TEXT,
                        export_date REAL,
                        export_version INTEGER,
                        bytes INTEGER NOT NULL,
                        records_read INTEGER NOT NULL,
                        records_added INTEGER NOT NULL,
                        duplicates INTEGER NOT NULL
                    );
                    CREATE INDEX import_run_fingerprint ON import_run(fingerprint);
                    CREATE TABLE sample (
                        anchor INTEGER PRIMARY KEY AUTOINCREMENT,
                        type_id INTEGER NOT NULL REFERENCES sample_type(id),
                        start REAL NOT NULL,
                        end REAL NOT NULL,
                        utc_offset INTEGER,
                        time_zone TEXT,
                        value REAL,
                        value_text TEXT,
                        unit TEXT,
                        source_id INTEGER NOT NULL REFERENCES source(id),
                        device_id INTEGER REFERENCES device(id),
                        creation_date REAL,
                        import_id INTEGER,
                        content_key BLOB NOT NULL UNIQUE
                    );
                    CREATE INDEX sample_type_start ON sample(type_id, start);
                    CREATE TABLE metadata (
                        owner_kind INTEGER NOT NULL,
                        owner INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        key TEXT NOT NULL,
                        value TEXT NOT NULL,
                        PRIMARY KEY (owner_kind, owner, position)
                    ) WITHOUT ROWID;
                    CREATE TABLE hrv_beat (
                        sample INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        time REAL NOT NULL,
                        bpm REAL NOT NULL,
                        PRIMARY KEY (sample, position)
                    ) WITHOUT ROWID;
                    CREATE TABLE correlation_member (
                        correlation INTEGER NOT NULL,
                        member INTEGER NOT NULL,
                        PRIMARY KEY (correlation, member)
                    ) WITHOUT ROWID;
                    CREATE TABLE workout (
                        anchor INTEGER PRIMARY KEY,
                        activity_type TEXT NOT NULL,
                        duration REAL, duration_unit TEXT,
                        total_distance REAL, total_distance_unit TEXT,
                        total_energy_burned REAL, total_energy_burned_unit TEXT,
                        extras_json TEXT
                    );
                    CREATE TABLE workout_event (
                        id INTEGER PRIMARY KEY,
                        workout INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        type TEXT NOT NULL,
                        date REAL NOT NULL,
                        duration REAL, duration_unit TEXT
                    );
                    CREATE INDEX workout_event_workout ON workout_event(workout);
                    CREATE TABLE workout_statistic (
                        workout INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        type TEXT NOT NULL,
                        start REAL, end REAL,
                        average REAL, minimum REAL, maximum REAL, sum REAL, unit TEXT,
                        PRIMARY KEY (workout, position)
                    ) WITHOUT ROWID;
                    CREATE TABLE workout_route (
                        id INTEGER PRIMARY KEY,
                        workout INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        source_id INTEGER, device_id INTEGER,
                        start REAL, end REAL, creation_date REAL,
                        file_path TEXT,
                        points_loaded INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX workout_route_workout ON workout_route(workout);
                    CREATE TABLE route_point (
                        route INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        time REAL,
                        latitude REAL NOT NULL, longitude REAL NOT NULL,
                        elevation REAL, speed REAL, course REAL,
                        horizontal_accuracy REAL, vertical_accuracy REAL,
                        PRIMARY KEY (route, position)
                    ) WITHOUT ROWID;
                    CREATE TABLE audiogram_point (
                        sample INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        frequency REAL, frequency_unit TEXT,
                        left_ear REAL, right_ear REAL, unit TEXT,
                        attributes_json TEXT NOT NULL,
                        PRIMARY KEY (sample, position)
                    ) WITHOUT ROWID;
                    CREATE TABLE activity_summary (
                        date TEXT PRIMARY KEY,
                        active_energy_burned REAL, active_energy_burned_goal REAL, active_energy_burned_unit TEXT,
                        apple_move_time REAL, apple_move_time_goal REAL,
                        apple_exercise_time REAL, apple_exercise_time_goal REAL,
                        apple_stand_hours REAL, apple_stand_hours_goal REAL
                    );
                    CREATE TABLE clinical_record (
                        id INTEGER PRIMARY KEY,
                        content_key BLOB NOT NULL UNIQUE,
                        type TEXT NOT NULL,
                        identifier TEXT NOT NULL,
                        source_name TEXT NOT NULL,
                        source_url TEXT, fhir_version TEXT,
                        received_date REAL,
                        resource_file_path TEXT,
                        resource_json TEXT
                    );
                    CREATE TABLE electrocardiogram (
                        id INTEGER PRIMARY KEY,
                        content_key BLOB NOT NULL UNIQUE,
                        file_name TEXT NOT NULL,
                        recorded_date REAL,
                        classification TEXT, symptoms TEXT, software_version TEXT, device TEXT,
                        sample_rate_hz REAL, lead TEXT, unit TEXT,
                        header_json TEXT NOT NULL,
                        voltages BLOB NOT NULL
                    );
                    CREATE TABLE raw_element (
                        id INTEGER PRIMARY KEY,
                        content_key BLOB NOT NULL UNIQUE,
                        name TEXT NOT NULL,
                        element_json TEXT NOT NULL
                    );
                    CREATE TABLE characteristic (
                        key TEXT PRIMARY KEY,
                        value TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2") { db in
            // The app's own records (AirFit's DailyLog, planned workouts, coach interactions).
            try db.execute(
                sql: """
                    CREATE TABLE daily_log (
                        local_date TEXT PRIMARY KEY,
                        energy INTEGER CHECK (energy BETWEEN 1 AND 5),
                        mood INTEGER CHECK (mood BETWEEN 1 AND 5),
                        stress INTEGER CHECK (stress BETWEEN 1 AND 5),
                        note TEXT
                    );
                    CREATE TABLE planned_workout (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        scheduled_at REAL NOT NULL,
                        duration_minutes INTEGER,
                        started_at REAL,
                        finished_at REAL
                    );
                    CREATE INDEX planned_workout_scheduled ON planned_workout(scheduled_at);
                    CREATE TABLE coach_interaction (
                        id INTEGER PRIMARY KEY,
                        at REAL NOT NULL,
                        kind TEXT NOT NULL
                    );
                    CREATE INDEX coach_interaction_at ON coach_interaction(at);
                    """)
        }
        migrator.registerMigration("v3") { db in
            // Which export the per-day and per-person records were read from, so that an
            // older export imported later never overwrites a newer one (NULL: unknown).
            // `content_hash`: the full hash of what an import read (fingerprints, docs/store.md).
            try db.execute(
                sql: """
                    ALTER TABLE activity_summary ADD COLUMN as_of REAL;
                    ALTER TABLE characteristic ADD COLUMN as_of REAL;
                    ALTER TABLE import_run ADD COLUMN content_hash TEXT;
                    """)
        }
        migrator.registerMigration("v4") { db in
            // Identity and deletions (docs/store.md §Identity and deletions). A sample's UUID
            // is derived from its content key unless a writer gave one the key does not
            // derive: only those are stored, so export records (nearly every row) cost
            // nothing and every existing store has its UUIDs without rewriting a row.
            // Tombstones take their anchors from the sequence samples use.
            try db.execute(
                sql: """
                    ALTER TABLE sample ADD COLUMN uuid BLOB;
                    CREATE UNIQUE INDEX sample_uuid ON sample(uuid) WHERE uuid IS NOT NULL;
                    CREATE TABLE tombstone (
                        anchor INTEGER PRIMARY KEY,
                        uuid BLOB NOT NULL,
                        type_id INTEGER NOT NULL REFERENCES sample_type(id)
                    );
                    CREATE INDEX tombstone_type_anchor ON tombstone(type_id, anchor);
                    CREATE INDEX tombstone_uuid ON tombstone(uuid);
                    CREATE INDEX correlation_member_member ON correlation_member(member);
                    """)
        }
        migrator.registerMigration("v5") { db in
            // Spans whose days must be computed again: written in the transaction that
            // changes their samples, deleted once the days are stored (issue 32, H3), so a
            // crash between the two leaves the work to do, never days that are wrong.
            try db.execute(
                sql: """
                    CREATE TABLE dirty_span (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        start REAL NOT NULL,
                        end REAL NOT NULL,
                        zone TEXT
                    );
                    """)
        }
        migrator.registerMigration("v6") { db in
            // One index on samples instead of two (docs/store.md §Sample indexes): a unique
            // (type_id, start, content_key) serves reads by type and time and keeps every
            // record once, so an import writes each sample into one index, not two (the
            // SQLite floor of a 150 MB import's rows: 0.88 → 0.70 s). A store that already
            // holds samples keeps its two indexes: rebuilding its largest table would make
            // opening it take minutes. The table is rebuilt empty, its anchor sequence kept.
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM sample LIMIT 1)") == 0 else { return }
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'sample'")
            try db.execute(
                sql: """
                    DROP TABLE sample;
                    CREATE TABLE sample (
                        anchor INTEGER PRIMARY KEY AUTOINCREMENT,
                        type_id INTEGER NOT NULL REFERENCES sample_type(id),
                        start REAL NOT NULL,
                        end REAL NOT NULL,
                        utc_offset INTEGER,
                        time_zone TEXT,
                        value REAL,
                        value_text TEXT,
                        unit TEXT,
                        source_id INTEGER NOT NULL REFERENCES source(id),
                        device_id INTEGER REFERENCES device(id),
                        creation_date REAL,
                        import_id INTEGER,
                        content_key BLOB NOT NULL,
                        uuid BLOB
                    );
                    CREATE UNIQUE INDEX sample_type_start_key ON sample(type_id, start, content_key);
                    CREATE UNIQUE INDEX sample_uuid ON sample(uuid) WHERE uuid IS NOT NULL;
                    """)
            if let sequence {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('sample', ?)", arguments: [sequence])
            }
        }
        migrator.registerMigration("v7") { db in
            // v6's layout finds a sample by its key with its type and start (docs/store.md
            // §Sample indexes). The seconds at which a type holds a sample whose start is
            // within the key's millisecond of that second but not on it: a copy at the whole
            // second is looked for first. And the keys of rows without a number (workouts,
            // correlations, audiograms: keys that are hashes alone), for finding their UUIDs.
            try db.execute(
                sql: """
                    CREATE TABLE sample_near_second (
                        type_id INTEGER NOT NULL,
                        second INTEGER NOT NULL,
                        PRIMARY KEY (type_id, second)
                    ) WITHOUT ROWID
                    """)
            if try samplesKeyedByTypeAndStart(db) {
                try db.execute(sql: "CREATE INDEX sample_key_unvalued ON sample(content_key) WHERE value IS NULL")
            }
        }
        return migrator
    }

    /// Whether this store's samples have the one index of v6, (type_id, start, content_key),
    /// rather than a unique index on the content key alone beside (type_id, start): a
    /// sample is then found by its key together with its type and start.
    static func samplesKeyedByTypeAndStart(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'index' AND name = 'sample_type_start_key'")
            ?? false
    }
}

/// What a `metadata` row belongs to.
enum MetadataOwner: Int64 {
    case sample = 0
    case workoutEvent = 1
    case workoutRoute = 2
}
