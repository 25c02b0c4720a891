-- Per-workspace settings admins change with the settings commands; the latest value per key.
CREATE TABLE workspace_settings (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  key          TEXT    NOT NULL,
  value_json   TEXT    NOT NULL,
  changed_by   TEXT    NOT NULL,
  changed_at   INTEGER NOT NULL,
  PRIMARY KEY (platform, workspace_id, key)
);

-- Every settings change (tools included), who made it and when.
CREATE TABLE settings_changes (
  id           INTEGER PRIMARY KEY,
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  key          TEXT    NOT NULL,
  value_json   TEXT    NOT NULL,
  changed_by   TEXT    NOT NULL,
  changed_at   INTEGER NOT NULL
);
CREATE INDEX settings_changes_by_workspace ON settings_changes (platform, workspace_id, changed_at);

-- Tokens spent per workspace per UTC day, kept in step with the turns table, for the daily budget.
CREATE TABLE token_usage_daily (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  day          TEXT    NOT NULL,
  tokens       INTEGER NOT NULL,
  PRIMARY KEY (platform, workspace_id, day)
);
