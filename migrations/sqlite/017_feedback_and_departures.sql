-- 👍 / 👎 under the bot's answers: one vote per person per answer (a second press changes it).
-- The turn's workspace is kept with the vote so that a press is checked against it and a
-- workspace's votes can be read (and purged) without going through its conversations.
CREATE TABLE turn_feedback (
  turn_id      TEXT    NOT NULL REFERENCES turns(id),
  user_id      TEXT    NOT NULL,
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  vote         TEXT    NOT NULL CHECK (vote IN ('up', 'down')),
  voted_at     INTEGER NOT NULL,
  -- How often the person changed their vote since the first press.
  changes      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (turn_id, user_id)
);
CREATE INDEX turn_feedback_by_workspace ON turn_feedback (platform, workspace_id);

-- Workspaces the app was uninstalled from (Slack's app_uninstalled / tokens_revoked): their
-- schedules stop at once, and their data is purged UNINSTALL_PURGE_DAYS after left_at by a
-- background sweep. A reinstall before then deletes the row, and the data stays.
CREATE TABLE workspace_departures (
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  left_at      INTEGER NOT NULL,
  reason       TEXT    NOT NULL,
  PRIMARY KEY (platform, workspace_id)
);
-- A purge deletes a workspace's turns after their messages: each deleted turn is checked against
-- messages.turn_id (its foreign key), which without this index scans every message.
CREATE INDEX messages_by_turn ON messages (turn_id);
