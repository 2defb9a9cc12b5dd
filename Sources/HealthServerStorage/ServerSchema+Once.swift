/// The idempotency protocol's first step on PostgreSQL in one round trip (issue 37 §2):
/// `healthpipe_begin_once` takes a request's slot, then reads its key's remembered answer.
extension ServerSchema {
    /// Takes the slot (a row of `in_flight`, as `begin` does: free, or left by a server that
    /// died `stale_before` ago), then — a statement of its own, so with a snapshot taken after
    /// the slot: an answer remembered before its first run gave the slot back is seen — reads
    /// the answer remembered for the key at `since` or later. With an answer, a slot it took
    /// is given back before it returns. One row: whether the slot is this caller's, then the
    /// answer's hash, status and body (`NULL` without one).
    static let beginOnce = """
        CREATE FUNCTION healthpipe_begin_once(
            p_slot BYTEA, p_now DOUBLE PRECISION, p_stale_before DOUBLE PRECISION, p_user TEXT, p_key TEXT,
            p_since DOUBLE PRECISION
        ) RETURNS TABLE (slot_taken BOOLEAN, answer_hash BYTEA, answer_status INTEGER, answer_body BYTEA)
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            taken BOOLEAN;
        BEGIN
            INSERT INTO in_flight AS f (slot_hash, taken_at) VALUES (p_slot, p_now)
            ON CONFLICT (slot_hash) DO UPDATE SET taken_at = EXCLUDED.taken_at WHERE f.taken_at < p_stale_before;
            taken := FOUND;
            RETURN QUERY SELECT taken, k.request_hash, k.status, k.body FROM idempotency_key k
                WHERE k.user_id = p_user AND k.key = p_key AND k.created_at >= p_since;
            IF FOUND THEN
                IF taken THEN
                    DELETE FROM in_flight WHERE slot_hash = p_slot;
                END IF;
                RETURN;
            END IF;
            RETURN QUERY SELECT taken, NULL::BYTEA, NULL::INTEGER, NULL::BYTEA;
        END
        $$
        """
}
