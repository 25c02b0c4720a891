-- A conversation's turns run in the platform's own order of messages (Slack's ts, Discord's
-- snowflake; the terminal's arrival order), whichever process received them and however long
-- each took to be admitted: not in the order their places were inserted.
-- message_order: the message's position in that order (see PlatformOrder in src/runner/incoming.ts).
-- started_at: set when the turn starts, so that a message arriving too late for its place (after a
-- later one started) waits for the running turn instead of starting beside it.
ALTER TABLE turn_queue ADD COLUMN message_order INTEGER NOT NULL DEFAULT 0;
ALTER TABLE turn_queue ADD COLUMN started_at INTEGER;
DROP INDEX turn_queue_by_conversation;
CREATE INDEX turn_queue_by_conversation ON turn_queue (conversation_key, message_order, id);
