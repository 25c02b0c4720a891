-- A conversation's turns run in the platform's own order of messages (Slack's ts, Discord's
-- snowflake; the terminal's arrival order), whichever process received them and however long
-- each took to be admitted: not in the order their places were committed. Numbered like the
-- SQLite migration that makes the same change (this engine's schema began at 001 with all of 001-008).
-- message_order: the message's position in that order (see PlatformOrder in src/runner/incoming.ts).
-- started_at: set when the turn starts, so that a message arriving too late for its place (after a
-- later one started) waits for the running turn instead of starting beside it.
ALTER TABLE turn_queue ADD COLUMN message_order BIGINT NOT NULL DEFAULT 0, ADD COLUMN started_at BIGINT;
DROP INDEX turn_queue_by_conversation;
CREATE INDEX turn_queue_by_conversation ON turn_queue (conversation_key, message_order, id);

-- A message's claim and its place in line, in one statement and before anything else is looked up
-- (the user, the settings): a message that arrived first is placed first, however long the rest of
-- its admission takes. For a message in a thread, the thread's scope is read in the same statement:
-- a message not addressed to the bot (p_addressed false) counts only in one of the bot's threads,
-- and a bot thread of earlier versions ('channel') continues its channel's conversation
-- (p_channel_key). p_event_id NULL: no claim (a question handed to the runner directly).
-- Returns 'placed' with the place and the thread's scope, 'duplicate' (another delivery claimed
-- the message first) or 'not_addressed' (nothing was written).
-- Its commit does not wait for the disk, like the other places' (001): the place must be visible to
-- the other processes as soon as possible (an fsync on a busy disk took longer than the hold-back),
-- and a crash of the server may lose only the last claims, whose messages were acknowledged already.
CREATE FUNCTION claim_turn_place(
  p_platform TEXT, p_event_id TEXT, p_thread_channel TEXT, p_thread_id TEXT, p_addressed BOOLEAN,
  p_key TEXT, p_channel_key TEXT, p_order BIGINT, p_instance TEXT, p_now BIGINT
) RETURNS TABLE (outcome TEXT, place BIGINT, scope TEXT) LANGUAGE plpgsql AS $$
DECLARE
  v_scope TEXT;
  v_place BIGINT;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  IF p_thread_id IS NOT NULL THEN
    SELECT b.scope INTO v_scope FROM bot_threads b WHERE b.platform = p_platform AND b.channel_id = p_thread_channel AND b.thread_id = p_thread_id;
  END IF;
  IF NOT p_addressed AND v_scope IS NULL THEN
    RETURN QUERY SELECT 'not_addressed'::TEXT, NULL::BIGINT, NULL::TEXT;
    RETURN;
  END IF;
  IF p_event_id IS NOT NULL THEN
    INSERT INTO processed_events (platform, event_id, received_at) VALUES (p_platform, p_event_id, p_now) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'duplicate'::TEXT, NULL::BIGINT, v_scope;
      RETURN;
    END IF;
  END IF;
  INSERT INTO turn_queue (conversation_key, instance, entered_at, message_order)
  VALUES (CASE WHEN v_scope = 'channel' THEN p_channel_key ELSE p_key END, p_instance, clock_ms(), p_order)
  RETURNING id INTO v_place;
  RETURN QUERY SELECT 'placed'::TEXT, v_place, v_scope;
END
$$;

-- The queue-depth and per-user rate checks for a place claim_turn_place() took: returns the place,
-- -1 when MAX_QUEUED_TURNS other turns already wait ahead of it or run, -2 when the user is over the
-- rate limit; a refused place is given up at once (and the turns behind it told). The rate is
-- counted as enter_turn_queue() (001) and src/store/rate-window.ts count it.
CREATE FUNCTION admit_turn_place(p_place BIGINT, p_max_depth INTEGER, p_rate_key TEXT, p_rate_limit INTEGER, p_rate_window_ms BIGINT)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  now_ms     BIGINT := clock_ms();
  v_key      TEXT;
  v_order    BIGINT;
  v_refusal  BIGINT;
  v_window   BIGINT;
  v_stored   BIGINT;
  v_current  INTEGER;
  v_previous INTEGER;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT q.conversation_key, q.message_order INTO v_key, v_order FROM turn_queue q WHERE q.id = p_place;
  -- Gone already (its process was taken for dead): nothing to count; the turn's wait finds the way clear.
  IF NOT FOUND THEN
    RETURN p_place;
  END IF;
  IF (SELECT count(*) FROM turn_queue q WHERE q.conversation_key = v_key AND q.id <> p_place
      AND (q.started_at IS NOT NULL OR (q.message_order, q.id) < (v_order, p_place))) >= p_max_depth THEN
    v_refusal := -1;
  ELSIF p_rate_key IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('agent-bot:rate:' || p_rate_key, 0));
    v_window := now_ms / p_rate_window_ms;
    SELECT r.period, r.current, r.previous INTO v_stored, v_current, v_previous FROM rate_windows r WHERE r.key = p_rate_key;
    IF NOT FOUND OR v_stored < v_window - 1 THEN
      v_current := 0;
      v_previous := 0;
    ELSIF v_stored = v_window - 1 THEN
      v_previous := v_current;
      v_current := 0;
    END IF;
    IF v_current + ceil(v_previous * (1 - (now_ms - v_window * p_rate_window_ms)::float8 / p_rate_window_ms)) >= p_rate_limit THEN
      v_refusal := -2;
    ELSE
      INSERT INTO rate_windows (key, period, current, previous, updated_at) VALUES (p_rate_key, v_window, v_current + 1, v_previous, now_ms)
      ON CONFLICT (key) DO UPDATE SET period = EXCLUDED.period, current = EXCLUDED.current, previous = EXCLUDED.previous, updated_at = EXCLUDED.updated_at;
    END IF;
  END IF;
  IF v_refusal IS NOT NULL THEN
    DELETE FROM turn_queue WHERE id = p_place;
    PERFORM pg_notify('agent_bot_queue', md5(v_key));
    RETURN v_refusal;
  END IF;
  RETURN p_place;
END
$$;

-- Starts a place's turn when it may run: no other place of its conversation runs, and none comes
-- before it in the platform's order. Returns NULL when it started (or is gone), else the place it
-- waits for (the running one first). Under a transaction-scoped advisory lock on the conversation,
-- so two places cannot both see the way clear and start together.
CREATE FUNCTION start_turn_place(p_place BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  v_key     TEXT;
  v_order   BIGINT;
  v_started BIGINT;
  v_blocker BIGINT;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT q.conversation_key, q.message_order, q.started_at INTO v_key, v_order, v_started FROM turn_queue q WHERE q.id = p_place;
  IF NOT FOUND OR v_started IS NOT NULL THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('agent-bot:queue:' || v_key, 0));
  SELECT q.id INTO v_blocker FROM turn_queue q
  WHERE q.conversation_key = v_key AND q.id <> p_place AND (q.started_at IS NOT NULL OR (q.message_order, q.id) < (v_order, p_place))
  ORDER BY q.started_at IS NULL, q.message_order, q.id
  LIMIT 1;
  IF FOUND THEN
    RETURN v_blocker;
  END IF;
  UPDATE turn_queue SET started_at = clock_ms() WHERE id = p_place;
  RETURN NULL;
END
$$;
