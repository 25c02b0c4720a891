-- Budgets admins set per workspace, channel and user, by day or month, in tokens or dollars.
CREATE TABLE budget_limits (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  scope        TEXT    NOT NULL,
  subject      TEXT    NOT NULL,
  period       TEXT    NOT NULL,
  unit         TEXT    NOT NULL,
  amount       DOUBLE PRECISION NOT NULL,
  changed_by   TEXT    NOT NULL,
  changed_at   BIGINT  NOT NULL,
  PRIMARY KEY (platform, workspace_id, scope, subject, period)
);
-- What each budget spent in each window (settled calls), whichever process made them, and what
-- calls under way hold of it. Holds are one sum per budget, not a row per call, so a check writes
-- one small row per budget: a hold left by a process that died mid-call is dropped once no call
-- has reserved against the budget for the hold time (held_until).
CREATE TABLE budget_spend (
  budget_key   TEXT    NOT NULL,
  window_start BIGINT  NOT NULL,
  spent        DOUBLE PRECISION NOT NULL DEFAULT 0,
  held         DOUBLE PRECISION NOT NULL DEFAULT 0,
  held_until   BIGINT  NOT NULL DEFAULT 0,
  PRIMARY KEY (budget_key, window_start)
);
-- The 80% and 100% notices sent, one per budget, window and level.
CREATE TABLE budget_alerts (
  budget_key   TEXT    NOT NULL,
  window_start BIGINT  NOT NULL,
  level        INTEGER NOT NULL,
  sent_at      BIGINT  NOT NULL,
  PRIMARY KEY (budget_key, window_start, level)
);
