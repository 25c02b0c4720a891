-- Tool calls waiting for a person's approval, and every decision on them (the approvals audit):
-- the tool and its arguments, who asked, and who decided what and when. A request left 'pending'
-- by a stopped process is expired at the next start; a late press then finds it expired.
CREATE TABLE approvals (
  id           TEXT    PRIMARY KEY,
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  channel_id   TEXT    NOT NULL,
  turn_id      TEXT    NOT NULL,
  tool         TEXT    NOT NULL,
  args_json    TEXT    NOT NULL,
  asked_by     TEXT    NOT NULL,
  status       TEXT    NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'timed_out', 'expired')),
  requested_at INTEGER NOT NULL,
  decided_by   TEXT,
  decided_at   INTEGER,
  instance     TEXT    NOT NULL
);
CREATE INDEX approvals_pending ON approvals (instance) WHERE status = 'pending';
CREATE INDEX approvals_by_workspace ON approvals (platform, workspace_id, requested_at);

-- Per-workspace overrides of which tools need approval; absent rows mean the tool's default
-- (MCP tools marked destructive need it, the others do not).
CREATE TABLE tool_approval_settings (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  tool         TEXT    NOT NULL,
  required     INTEGER NOT NULL CHECK (required IN (0, 1)),
  changed_by   TEXT    NOT NULL,
  changed_at   INTEGER NOT NULL,
  PRIMARY KEY (platform, workspace_id, tool)
);

-- Per-channel overrides (a thread follows its channel's): key 'tool:NAME' (true/false), 'prompt',
-- 'memoryWindow', 'model'. Changes are recorded in settings_changes with the key 'channel:ID:KEY'.
CREATE TABLE channel_settings (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  channel_id   TEXT    NOT NULL,
  key          TEXT    NOT NULL,
  value_json   TEXT    NOT NULL,
  changed_by   TEXT    NOT NULL,
  changed_at   INTEGER NOT NULL,
  PRIMARY KEY (platform, workspace_id, channel_id, key)
);

-- What usage reports need of each turn besides its tokens and user: the model it used and the
-- channel it was in (a thread's channel). Older turns have neither (NULL).
ALTER TABLE turns ADD COLUMN model TEXT;
ALTER TABLE turns ADD COLUMN channel_id TEXT;
-- The per-user daily token budget reads one user's turns of the day.
CREATE INDEX turns_by_user ON turns (user_id, started_at);
