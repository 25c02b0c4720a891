-- Budgets admins set per workspace, channel and user, by day or month, in tokens or dollars.
CREATE TABLE budget_limits (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  scope        TEXT    NOT NULL,
  subject      TEXT    NOT NULL,
  period       TEXT    NOT NULL,
  unit         TEXT    NOT NULL,
  amount       REAL    NOT NULL,
  changed_by   TEXT    NOT NULL,
  changed_at   INTEGER NOT NULL,
  PRIMARY KEY (platform, workspace_id, scope, subject, period)
);
-- What each budget spent in each window (settled calls), whichever process made them.
CREATE TABLE budget_spend (
  budget_key   TEXT    NOT NULL,
  window_start INTEGER NOT NULL,
  spent        REAL    NOT NULL DEFAULT 0,
  PRIMARY KEY (budget_key, window_start)
);
-- The cost held for calls under way, settled (deleted) when they end; a dead process's expire.
CREATE TABLE budget_holds (
  hold_id      TEXT    NOT NULL,
  budget_key   TEXT    NOT NULL,
  window_start INTEGER NOT NULL,
  amount       REAL    NOT NULL,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (budget_key, window_start, hold_id)
);
CREATE INDEX budget_holds_by_id ON budget_holds (hold_id);
-- The 80% and 100% notices sent, one per budget, window and level.
CREATE TABLE budget_alerts (
  budget_key   TEXT    NOT NULL,
  window_start INTEGER NOT NULL,
  level        INTEGER NOT NULL,
  sent_at      INTEGER NOT NULL,
  PRIMARY KEY (budget_key, window_start, level)
);
