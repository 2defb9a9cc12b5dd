import Foundation
import GRDB
import HealthCore
import HealthServerRecords

/// The server's own tables — users and their tokens, daily metrics, idempotency keys,
/// import jobs, sync devices and their keys, consent and dashboard sessions — for
/// both backends, side by side: a migration is added to both at once, under one id, and
/// (like the health store's, `HealthDatabase+Schema.swift`) migrations only ever append.
enum ServerSchema {
    struct Migration {
        let id: String
        /// One script for SQLite.
        let sqlite: String
        /// Statements for PostgreSQL, one at a time (the extended protocol runs one each).
        let postgres: [String]
    }

    static let migrations: [Migration] = [
        Migration(
            id: "server-v1",
            sqlite: """
                CREATE TABLE user (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, scopes TEXT NOT NULL,
                    token_id TEXT NOT NULL UNIQUE, token_hash BLOB NOT NULL,
                    created_at REAL NOT NULL, revoked_at REAL
                );
                CREATE TABLE daily_metrics (
                    user_id TEXT NOT NULL REFERENCES user(id),
                    local_date TEXT NOT NULL,
                    normalization_version TEXT NOT NULL,
                    timezone TEXT NOT NULL,
                    utc_day_start REAL NOT NULL,
                    utc_day_end REAL NOT NULL,
                    steps_normalized INTEGER,
                    steps_raw_sum INTEGER,
                    steps_sources_json TEXT,
                    active_energy_kcal REAL,
                    sleep_hours REAL,
                    resting_hr_bpm REAL,
                    hrv_ms REAL,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL,
                    PRIMARY KEY (user_id, local_date, normalization_version)
                ) WITHOUT ROWID;
                """,
            postgres: [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, scopes TEXT NOT NULL,
                    token_id TEXT NOT NULL UNIQUE, token_hash BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL, revoked_at DOUBLE PRECISION
                )
                """,
                """
                CREATE TABLE daily_metrics (
                    user_id TEXT NOT NULL REFERENCES users(id),
                    local_date TEXT NOT NULL,
                    normalization_version TEXT NOT NULL,
                    timezone TEXT NOT NULL,
                    utc_day_start DOUBLE PRECISION NOT NULL,
                    utc_day_end DOUBLE PRECISION NOT NULL,
                    steps_normalized BIGINT,
                    steps_raw_sum BIGINT,
                    steps_sources_json TEXT,
                    active_energy_kcal DOUBLE PRECISION,
                    sleep_hours DOUBLE PRECISION,
                    resting_hr_bpm DOUBLE PRECISION,
                    hrv_ms DOUBLE PRECISION,
                    created_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (user_id, local_date, normalization_version)
                )
                """,
            ]),
        Migration(
            id: "server-v2",
            sqlite: """
                CREATE TABLE idempotency_key (
                    user_id TEXT NOT NULL REFERENCES user(id),
                    key TEXT NOT NULL,
                    request_hash BLOB NOT NULL,
                    status INTEGER NOT NULL,
                    body BLOB NOT NULL,
                    created_at REAL NOT NULL,
                    PRIMARY KEY (user_id, key)
                ) WITHOUT ROWID;
                """,
            postgres: [
                """
                CREATE TABLE idempotency_key (
                    user_id TEXT NOT NULL REFERENCES users(id),
                    key TEXT NOT NULL,
                    request_hash BYTEA NOT NULL,
                    status INTEGER NOT NULL,
                    body BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (user_id, key)
                )
                """
            ]),
        Migration(
            id: "server-v3",
            sqlite: """
                CREATE TABLE import_job (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES user(id),
                    state TEXT NOT NULL,
                    job_json TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX import_job_by_user ON import_job(user_id, created_at);
                """,
            postgres: [
                """
                CREATE TABLE import_job (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    state TEXT NOT NULL,
                    job_json TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX import_job_by_user ON import_job(user_id, created_at)",
            ]),
        Migration(
            id: "server-v4",
            sqlite: """
                CREATE TABLE device (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES user(id),
                    name TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    revoked_at REAL,
                    last_sequence INTEGER NOT NULL DEFAULT 0,
                    last_batch_id TEXT,
                    last_batch_at REAL
                );
                CREATE INDEX device_by_user ON device(user_id, created_at);
                CREATE TABLE device_key (
                    device_id TEXT NOT NULL REFERENCES device(id),
                    key_id TEXT NOT NULL,
                    secret BLOB NOT NULL,
                    created_at REAL NOT NULL,
                    retired_at REAL,
                    PRIMARY KEY (device_id, key_id)
                ) WITHOUT ROWID;
                """,
            postgres: [
                """
                CREATE TABLE device (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    name TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    revoked_at DOUBLE PRECISION,
                    last_sequence BIGINT NOT NULL DEFAULT 0,
                    last_batch_id TEXT,
                    last_batch_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX device_by_user ON device(user_id, created_at)",
                """
                CREATE TABLE device_key (
                    device_id TEXT NOT NULL REFERENCES device(id),
                    key_id TEXT NOT NULL,
                    secret BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    retired_at DOUBLE PRECISION,
                    PRIMARY KEY (device_id, key_id)
                )
                """,
            ]),
        Migration(
            id: "server-v5",
            sqlite: """
                ALTER TABLE user ADD COLUMN data_types TEXT;
                CREATE TABLE consent (
                    user_id TEXT PRIMARY KEY REFERENCES user(id),
                    granted TEXT NOT NULL,
                    denied TEXT NOT NULL,
                    decided_at REAL NOT NULL,
                    declined_at REAL
                ) WITHOUT ROWID;
                CREATE TABLE web_session (
                    id_hash BLOB PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES user(id),
                    csrf_token TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    expires_at REAL NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX web_session_by_user ON web_session(user_id);
                """,
            postgres: [
                "ALTER TABLE users ADD COLUMN data_types TEXT",
                """
                CREATE TABLE consent (
                    user_id TEXT PRIMARY KEY REFERENCES users(id),
                    granted TEXT NOT NULL,
                    denied TEXT NOT NULL,
                    decided_at DOUBLE PRECISION NOT NULL,
                    declined_at DOUBLE PRECISION
                )
                """,
                """
                CREATE TABLE web_session (
                    id_hash BYTEA PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    csrf_token TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX web_session_by_user ON web_session(user_id)",
            ]),
        Migration(
            id: "server-v6",
            // What several servers on one PostgreSQL database share: the import queue (the
            // upload itself, so any server can import it, and the row a server locks while it
            // imports) and the requests in flight. One SQLite server keeps both in memory and
            // imports its own uploads from disk.
            sqlite: "SELECT 1",
            postgres: [
                """
                CREATE TABLE import_upload (
                    job_id TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    user_id TEXT NOT NULL,
                    bytes BYTEA NOT NULL,
                    PRIMARY KEY (job_id, seq)
                )
                """,
                """
                CREATE TABLE import_claim (
                    job_id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    zone TEXT NOT NULL
                )
                """,
                // Requests in flight on any server (an Idempotency-Key's first request, a
                // device's batch), by the SHA-256 of their slot.
                """
                CREATE TABLE in_flight (
                    slot_hash BYTEA PRIMARY KEY,
                    taken_at DOUBLE PRECISION NOT NULL
                )
                """,
            ]),
        Migration(
            id: "server-v7",
            // Several tokens per person: the owner's (each user's token so far, moved here
            // unchanged, so every token in use stays valid) and the scoped tokens the owner
            // makes for a coach or a dashboard. The user row keeps its token id, but no
            // longer a hash: the token table is the only place a token is checked against.
            sqlite: """
                CREATE TABLE api_token (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES user(id),
                    role TEXT NOT NULL,
                    name TEXT NOT NULL,
                    scopes TEXT NOT NULL,
                    read_types TEXT,
                    write_types TEXT,
                    hash BLOB NOT NULL,
                    created_at REAL NOT NULL,
                    revoked_at REAL
                );
                CREATE INDEX api_token_by_user ON api_token(user_id);
                CREATE UNIQUE INDEX api_token_live_name ON api_token(user_id, name) WHERE revoked_at IS NULL;
                INSERT INTO api_token (id, user_id, role, name, scopes, read_types, write_types, hash, created_at)
                    SELECT token_id, id, 'owner', 'owner', scopes, data_types, NULL, token_hash, created_at FROM user;
                UPDATE user SET token_hash = X'';
                """,
            postgres: [
                """
                CREATE TABLE api_token (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    role TEXT NOT NULL,
                    name TEXT NOT NULL,
                    scopes TEXT NOT NULL,
                    read_types TEXT,
                    write_types TEXT,
                    hash BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    revoked_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX api_token_by_user ON api_token(user_id)",
                "CREATE UNIQUE INDEX api_token_live_name ON api_token(user_id, name) WHERE revoked_at IS NULL",
                """
                INSERT INTO api_token (id, user_id, role, name, scopes, read_types, write_types, hash, created_at)
                    SELECT token_id, id, 'owner', 'owner', scopes, data_types, NULL, token_hash, created_at FROM users
                """,
                "UPDATE users SET token_hash = ''::bytea",
            ]),
        Migration(
            id: "server-v8",
            // What a day's sleep was taken from and its time in bed (`sleep_source_json`, the
            // payload's later optional field): a night of only time in bed has no sleep hours.
            sqlite: "ALTER TABLE daily_metrics ADD COLUMN sleep_source_json TEXT;",
            postgres: ["ALTER TABLE daily_metrics ADD COLUMN sleep_source_json TEXT"]),
        Migration(
            id: "server-v9",
            // OAuth 2.1 for remote MCP clients (docs/oauth.md): registered clients, codes and
            // tokens by the SHA-256 of their secrets. A grant is an api_token row (role connected,
            // read only); its codes and tokens name it and go with it.
            sqlite: """
                CREATE TABLE oauth_client (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, redirect_uris TEXT NOT NULL,
                    created_at REAL NOT NULL, used_at REAL
                );
                CREATE TABLE oauth_code (
                    hash BLOB PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL REFERENCES user(id),
                    redirect_uri TEXT NOT NULL, challenge TEXT NOT NULL, resource TEXT NOT NULL, kinds TEXT NOT NULL,
                    expires_at REAL NOT NULL, used_at REAL, grant_id TEXT
                );
                CREATE INDEX oauth_code_by_user ON oauth_code(user_id);
                CREATE TABLE oauth_token (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, hash BLOB NOT NULL,
                    user_id TEXT NOT NULL REFERENCES user(id), grant_id TEXT NOT NULL, client_id TEXT NOT NULL,
                    resource TEXT NOT NULL, expires_at REAL NOT NULL, used_at REAL
                );
                CREATE INDEX oauth_token_by_user ON oauth_token(user_id);
                CREATE INDEX oauth_token_by_expiry ON oauth_token(expires_at);
                """,
            postgres: [
                """
                CREATE TABLE oauth_client (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, redirect_uris TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL, used_at DOUBLE PRECISION
                )
                """,
                """
                CREATE TABLE oauth_code (
                    hash BYTEA PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL REFERENCES users(id),
                    redirect_uri TEXT NOT NULL, challenge TEXT NOT NULL, resource TEXT NOT NULL, kinds TEXT NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL, used_at DOUBLE PRECISION, grant_id TEXT
                )
                """,
                "CREATE INDEX oauth_code_by_user ON oauth_code(user_id)",
                """
                CREATE TABLE oauth_token (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, hash BYTEA NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id), grant_id TEXT NOT NULL, client_id TEXT NOT NULL,
                    resource TEXT NOT NULL, expires_at DOUBLE PRECISION NOT NULL, used_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX oauth_token_by_user ON oauth_token(user_id)",
                "CREATE INDEX oauth_token_by_expiry ON oauth_token(expires_at)",
            ]),
        // An Idempotency-Key's slot and answer in one round trip (issue 37 §2; SQLite's slots are in memory).
        Migration(id: "server-v10", sqlite: "SELECT 1", postgres: [beginOnce]),
        // A person's home zone (docs/api.md §Home zone): the one zone their days are counted in;
        // for a person with days already, the zone most of them are in (their days computed
        // later then meet the stored ones instead of starting a zone of their own).
        Migration(
            id: "server-v11",
            sqlite: """
                ALTER TABLE user ADD COLUMN home_zone TEXT;
                UPDATE user SET home_zone = (\(homeZoneOfDays("user.id")));
                """,
            postgres: [
                "ALTER TABLE users ADD COLUMN home_zone TEXT",
                "UPDATE users SET home_zone = (\(homeZoneOfDays("users.id")))",
            ]),
    ]

    /// The SQLite migrator of ``migrations``.
    static var sqliteMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.id) { db in try db.execute(sql: migration.sqlite) }
        }
        return migrator
    }
}
