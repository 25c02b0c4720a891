-- Scheduled and recurring tasks (issue 26). A task is either recurring (cron, computed in
-- time_zone) or one-off (no cron: it runs once at next_due). next_due is the next time it is due
-- (ms since the epoch); NULL once a one-off task has run or the task is paused.
CREATE TABLE scheduled_tasks (
  id           TEXT    PRIMARY KEY,
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  channel_id   TEXT    NOT NULL,
  creator      TEXT    NOT NULL,
  when_text    TEXT    NOT NULL,
  cron         TEXT,
  time_zone    TEXT    NOT NULL,
  task         TEXT    NOT NULL,
  status       TEXT    NOT NULL,
  next_due     BIGINT,
  failures     INTEGER NOT NULL DEFAULT 0,
  created_at   BIGINT  NOT NULL
);
CREATE INDEX scheduled_tasks_by_workspace ON scheduled_tasks (platform, workspace_id);
CREATE INDEX scheduled_tasks_due ON scheduled_tasks (next_due) WHERE status = 'active';
-- One row per due time a process claimed: the primary key is the claim, so of several processes
-- one runs each due time. Runs now ("run now") are keyed by the time they were asked for.
CREATE TABLE scheduled_runs (
  task_id     TEXT    NOT NULL REFERENCES scheduled_tasks (id) ON DELETE CASCADE,
  due_at      BIGINT  NOT NULL,
  status      TEXT    NOT NULL,
  instance    TEXT    NOT NULL,
  started_at  BIGINT  NOT NULL,
  finished_at BIGINT,
  tokens      BIGINT  NOT NULL DEFAULT 0,
  link        TEXT,
  detail      TEXT,
  PRIMARY KEY (task_id, due_at)
);
CREATE INDEX scheduled_runs_running ON scheduled_runs (instance) WHERE status = 'running';
