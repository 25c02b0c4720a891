-- A summary of what left a conversation's memory window (issue 24 §1), one row per conversation.
-- version: every update checks the version it read and bumps it, so of two processes updating
-- one conversation's summary at once, one writes and the other's update changes nothing (no lost
-- update). claimed_until: the process summarizing it now holds it until then (one at a time).
CREATE TABLE conversation_summaries (
  conversation_id BIGINT PRIMARY KEY REFERENCES conversations(id),
  version         BIGINT NOT NULL DEFAULT 0,
  summary         TEXT    NOT NULL DEFAULT '',
  -- identifiers found by code in the summarized messages, verbatim, as a JSON array (newest last)
  identifiers     TEXT    NOT NULL DEFAULT '[]',
  -- the last message (messages.id) the summary covers; later ones are in the window or pending
  covered_to      BIGINT NOT NULL DEFAULT 0,
  -- the time range the summary covers (ms since the epoch), NULL while it covers nothing
  covers_from     BIGINT,
  covers_until    BIGINT,
  updated_at      BIGINT,
  -- failed attempts in a row, and when the next may run (the dropped exchanges stay pending)
  failures        INTEGER NOT NULL DEFAULT 0,
  retry_at        BIGINT NOT NULL DEFAULT 0,
  claimed_until   BIGINT NOT NULL DEFAULT 0,
  -- 1 once the conversation was told that a summary is kept ("/memory show")
  noted           INTEGER NOT NULL DEFAULT 0
);
-- The platform's id of the message a question came from (Discord message id, Slack ts), so the
-- identifier index can point at it; NULL for older rows and answers.
ALTER TABLE messages ADD COLUMN source_id TEXT;
-- What a row of turns records: a turn ('turn') or a summary call ('summary'), for usage reports.
ALTER TABLE turns ADD COLUMN kind TEXT NOT NULL DEFAULT 'turn';
