-- Conversations: one row per place the bot talks (a channel, or a thread of one).
-- thread_id is '' when the conversation is a whole channel, so the unique key works.
CREATE TABLE conversations (
  id              INTEGER PRIMARY KEY,
  platform        TEXT    NOT NULL,
  workspace_id    TEXT    NOT NULL,
  channel_id      TEXT    NOT NULL,
  thread_id       TEXT    NOT NULL DEFAULT '',
  -- messages with id <= window_start are outside the memory window (set by "memory clear")
  window_start    INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  UNIQUE (platform, workspace_id, channel_id, thread_id)
);

CREATE TABLE turns (
  id                TEXT    PRIMARY KEY,
  conversation_id   INTEGER NOT NULL REFERENCES conversations(id),
  user_id           TEXT    NOT NULL,
  status            TEXT    NOT NULL CHECK (status IN ('running', 'answered', 'failed', 'interrupted')),
  outcome           TEXT,
  started_at        INTEGER NOT NULL,
  ended_at          INTEGER,
  duration_ms       INTEGER,
  iterations        INTEGER NOT NULL DEFAULT 0,
  prompt_tokens     INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  total_tokens      INTEGER NOT NULL DEFAULT 0,
  error             TEXT
);
CREATE INDEX turns_by_conversation ON turns (conversation_id, started_at);
CREATE INDEX turns_running ON turns (status) WHERE status = 'running';

CREATE TABLE messages (
  id              INTEGER PRIMARY KEY,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id),
  turn_id         TEXT    REFERENCES turns(id),
  role            TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
  author          TEXT,
  text            TEXT    NOT NULL,
  created_at      INTEGER NOT NULL
);
-- The window query reads the newest rows of one conversation through this index only.
CREATE INDEX messages_window ON messages (conversation_id, id);

CREATE TABLE turn_steps (
  id          INTEGER PRIMARY KEY,
  turn_id     TEXT    NOT NULL REFERENCES turns(id),
  seq         INTEGER NOT NULL,
  tool        TEXT    NOT NULL,
  input       TEXT    NOT NULL,
  output      TEXT,
  error       TEXT,
  started_at  INTEGER NOT NULL,
  duration_ms INTEGER,
  UNIQUE (turn_id, seq)
);

CREATE TABLE tool_settings (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  tool         TEXT    NOT NULL,
  enabled      INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  changed_by   TEXT    NOT NULL,
  changed_at   INTEGER NOT NULL,
  PRIMARY KEY (platform, workspace_id, tool)
);

-- Threads the bot opened, so follow-ups without a mention are answered, also after a restart.
CREATE TABLE bot_threads (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  channel_id   TEXT    NOT NULL,
  thread_id    TEXT    NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (platform, channel_id, thread_id)
);

-- Platform event ids already handled, so a redelivered event starts no second turn.
CREATE TABLE processed_events (
  platform    TEXT    NOT NULL,
  event_id    TEXT    NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (platform, event_id)
);

-- Currency reference rates, newest fetch per source.
CREATE TABLE currency_rates (
  source     TEXT    PRIMARY KEY,
  rate_date  TEXT    NOT NULL,
  rates_json TEXT    NOT NULL,
  fetched_at INTEGER NOT NULL
);
