extension PostgresHealthSchema {
    /// `health-v6`: `health_add_new_samples`, a write of samples that are all new in one
    /// statement (issue 37 §2; ``PostgresHealthStore/addNewSamples(_:)``).
    ///
    /// It takes the locks of ``PostgresRecordWriter`` in the writer's order — the owner's row
    /// `FOR KEY SHARE`, the user's `health_store` row, the caller's guard (a sync batch's
    /// sequence), the sources and devices `FOR KEY SHARE` — and then, each statement seeing
    /// every commit made before its locks were granted (a function's statements take fresh
    /// snapshots under `READ COMMITTED`), checks that the writer's identity rules have nothing
    /// to decide: no stored sample has one of the rows' UUIDs or content keys, no tombstone
    /// one of their writer-given UUIDs. The rows are then exactly what the writer would
    /// store: every one added, anchors one after another from the user's last. Otherwise it
    /// returns `NULL` before writing anything (the owner gone, a row stored) or, once the
    /// guard has run, raises `HP000` (a name gone, a row stored meanwhile) so that the
    /// statement leaves nothing behind: the caller writes the batch with the writer. A
    /// guard that changes no row raises `HP001` (nothing written). Returns the user's last
    /// anchor before the rows.
    static let addNewSamples = """
        CREATE FUNCTION health_add_new_samples(
            p_user TEXT, p_owner_table TEXT, p_guard TEXT, p_guard_arguments TEXT[],
            p_sources INTEGER[], p_devices INTEGER[], p_given UUID[],
            p_uuids UUID[], p_keys UUID[], p_types INTEGER[], p_starts DOUBLE PRECISION[],
            p_ends DOUBLE PRECISION[], p_offsets INTEGER[], p_zones TEXT[], p_values DOUBLE PRECISION[],
            p_texts TEXT[], p_units TEXT[], p_source_ids INTEGER[], p_device_ids INTEGER[],
            p_created DOUBLE PRECISION[], p_metadata TEXT[], p_beats TEXT[], p_details TEXT[],
            p_span_types INTEGER[], p_span_durations DOUBLE PRECISION[],
            p_dirty_starts DOUBLE PRECISION[], p_dirty_ends DOUBLE PRECISION[], p_dirty_zone TEXT,
            p_channel TEXT, p_type_names TEXT
        ) RETURNS BIGINT LANGUAGE plpgsql AS $fn$
        DECLARE
            v_last BIGINT;
            v_count BIGINT;
            v_rows INTEGER := coalesce(array_length(p_uuids, 1), 0);
        BEGIN
            IF p_owner_table IS NOT NULL THEN
                EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM %s WHERE id = $1 FOR KEY SHARE) o', p_owner_table)
                    INTO v_count USING p_user;
                IF v_count = 0 THEN
                    RETURN NULL;
                END IF;
            END IF;
            INSERT INTO health_store AS s (user_id) VALUES (p_user)
                ON CONFLICT (user_id) DO UPDATE SET last_anchor = s.last_anchor RETURNING s.last_anchor INTO v_last;
            -- Nothing written yet but the lock (as the writer's): a batch the rules must decide
            -- (a duplicate sent again, the commonest) costs no error and no rollback.
            IF EXISTS (SELECT 1 FROM health_sample WHERE user_id = p_user AND uuid = ANY(p_uuids))
                OR EXISTS (SELECT 1 FROM health_sample WHERE user_id = p_user AND content_key = ANY(p_keys))
                OR EXISTS (SELECT 1 FROM health_tombstone WHERE user_id = p_user AND uuid = ANY(p_given))
            THEN
                RETURN NULL;
            END IF;
            IF p_guard IS NOT NULL THEN
                EXECUTE p_guard USING p_guard_arguments;
                GET DIAGNOSTICS v_count = ROW_COUNT;
                IF v_count <> 1 THEN
                    RAISE EXCEPTION USING ERRCODE = 'HP001', MESSAGE = 'the guard changed no row';
                END IF;
            END IF;
            SELECT count(*) INTO v_count FROM (
                SELECT 0, id FROM (SELECT id FROM health_source WHERE id = ANY(p_sources) ORDER BY id FOR KEY SHARE) s
                UNION ALL
                SELECT 1, id FROM (SELECT id FROM health_device WHERE id = ANY(p_devices) ORDER BY id FOR KEY SHARE) d) l;
            IF v_count <> coalesce(array_length(p_sources, 1), 0) + coalesce(array_length(p_devices, 1), 0) THEN
                RAISE EXCEPTION USING ERRCODE = 'HP000', MESSAGE = 'a name is gone';
            END IF;
            INSERT INTO health_source_user (source_id, user_id)
                SELECT u.id, p_user FROM unnest(p_sources) AS u(id) ORDER BY u.id ON CONFLICT DO NOTHING;
            INSERT INTO health_device_user (device_id, user_id)
                SELECT u.id, p_user FROM unnest(p_devices) AS u(id) ORDER BY u.id ON CONFLICT DO NOTHING;
            INSERT INTO health_sample (user_id, uuid, anchor, content_key, type_id, start, "end", utc_offset, time_zone,
                    value, value_text, unit, source_id, device_id, creation_date, metadata, beats, details)
                SELECT p_user, r.uuid, v_last + r.position, r.key, r.type_id, r.start, r."end", r.utc_offset, r.zone,
                    r.value, r.text, r.unit, r.source_id, r.device_id, r.created, r.metadata::jsonb, r.beats::jsonb,
                    r.details::jsonb
                FROM unnest(p_uuids, p_keys, p_types, p_starts, p_ends, p_offsets, p_zones, p_values, p_texts, p_units,
                    p_source_ids, p_device_ids, p_created, p_metadata, p_beats, p_details) WITH ORDINALITY
                    AS r(uuid, key, type_id, start, "end", utc_offset, zone, value, text, unit, source_id, device_id,
                        created, metadata, beats, details, position)
                ORDER BY r.position
                ON CONFLICT DO NOTHING;
            GET DIAGNOSTICS v_count = ROW_COUNT;
            IF v_count <> v_rows THEN
                RAISE EXCEPTION USING ERRCODE = 'HP000', MESSAGE = 'a row was stored meanwhile';
            END IF;
            INSERT INTO health_type_span (user_id, type_id, max_duration)
                SELECT p_user, s.type_id, s.duration FROM unnest(p_span_types, p_span_durations) AS s(type_id, duration)
                ORDER BY s.type_id
                ON CONFLICT (user_id, type_id) DO UPDATE
                SET max_duration = greatest(health_type_span.max_duration, EXCLUDED.max_duration);
            UPDATE health_store SET last_anchor = v_last + v_rows WHERE user_id = p_user;
            INSERT INTO health_dirty_span (user_id, start, "end", zone)
                SELECT p_user, d.start, d."end", p_dirty_zone
                FROM unnest(p_dirty_starts, p_dirty_ends) WITH ORDINALITY AS d(start, "end", position)
                ORDER BY d.position;
            IF v_rows > 0 THEN
                PERFORM pg_notify(p_channel, p_user || ' ' || (v_last + v_rows) || ' ' || p_type_names);
            END IF;
            RETURN v_last;
        END
        $fn$
        """
}
