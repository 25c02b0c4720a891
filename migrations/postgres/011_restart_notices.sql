-- The turn a place in line belongs to, set when the turn starts. A turn holds its place until its
-- answer was posted: a turn recorded 'answered' whose place remains when its process died had its
-- answer shown partly or not at all, so the reaper takes its exchange back out of memory.
ALTER TABLE turn_queue ADD COLUMN turn_id TEXT;

-- Where the asker of a turn is told that the bot restarted before finishing it, should its process
-- die (JSON: the question's place and message, and the asker). Null for the terminal's turns.
ALTER TABLE turns ADD COLUMN notice_to TEXT;

-- Askers to tell that the bot restarted before finishing their turn: added by the reaper of a dead
-- process, taken (and deleted) by a process connected to the platform, which posts the notice.
CREATE TABLE restart_notices (
  turn_id    TEXT    PRIMARY KEY,
  platform   TEXT    NOT NULL,
  target     TEXT    NOT NULL,
  created_at BIGINT  NOT NULL
);
