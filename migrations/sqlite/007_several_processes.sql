-- Several bot processes sharing this file (see README, "Several processes, one database").

-- Each process run, with a lease it renews; a run whose lease ran out (or whose process is gone)
-- is reaped by whichever process notices: its running turns become 'interrupted'.
CREATE TABLE instances (
  id           TEXT    PRIMARY KEY,
  name         TEXT    NOT NULL,
  host         TEXT    NOT NULL,
  pid          INTEGER NOT NULL,
  started_at   INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);

-- Turns waiting or running, one row each: a conversation's turns run in id order, whichever process
-- received them, and MAX_QUEUED_TURNS counts these rows.
CREATE TABLE turn_queue (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_key TEXT    NOT NULL,
  instance         TEXT    NOT NULL,
  entered_at       INTEGER NOT NULL
);
CREATE INDEX turn_queue_by_conversation ON turn_queue (conversation_key, id);
CREATE INDEX turn_queue_by_instance ON turn_queue (instance);

-- Turns each user started in the current and the previous minute, for RATE_LIMIT_PER_USER across
-- processes (see src/store/rate-window.ts).
CREATE TABLE rate_windows (
  key        TEXT    PRIMARY KEY,
  period     INTEGER NOT NULL,
  current    INTEGER NOT NULL,
  previous   INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Bumped by every settings change, so processes sharing the file drop what they cached.
CREATE TABLE settings_version (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO settings_version (id, version) VALUES (1, 0);

CREATE INDEX turns_by_instance ON turns (instance) WHERE status = 'running';

