-- Search over a channel's history (issue 24 §2): every exchange the bot stores, and the messages
-- of channels whose admins turned history on, indexed with their author, time, place and link.
-- channel_id is the channel searched (a Discord thread's parent channel); thread_id the thread in it.
-- message_id is the platform's id (a Discord snowflake, a Slack ts), unique in its channel; an
-- exchange's answer is indexed under its question's id with "#answer" appended.
-- scope is one token naming (platform, workspace, channel), so the full-text query itself keeps
-- to one channel (FTS5 intersects the token lists) instead of filtering a channel's matches afterwards.
CREATE TABLE history_messages (
  id           INTEGER PRIMARY KEY,
  platform     TEXT    NOT NULL,
  workspace_id TEXT    NOT NULL,
  channel_id   TEXT    NOT NULL,
  thread_id    TEXT    NOT NULL DEFAULT '',
  message_id   TEXT    NOT NULL,
  kind         TEXT    NOT NULL CHECK (kind IN ('question', 'answer', 'message')),
  author_id    TEXT    NOT NULL,
  author_name  TEXT    NOT NULL,
  text         TEXT    NOT NULL,
  link         TEXT,
  -- the turn whose exchange this is (questions and answers), so a deleted question takes its exchange along
  turn_id      TEXT,
  created_at   INTEGER NOT NULL,
  scope        TEXT    NOT NULL,
  UNIQUE (platform, workspace_id, channel_id, message_id)
);
-- Deletions name a message by its id (and the channel or thread it was in).
CREATE INDEX history_by_message ON history_messages (platform, workspace_id, message_id);
-- /memory forget-me.
CREATE INDEX history_by_author ON history_messages (platform, workspace_id, author_id);
-- HISTORY_RETENTION_DAYS.
CREATE INDEX history_by_time ON history_messages (created_at);
CREATE INDEX history_by_turn ON history_messages (turn_id) WHERE turn_id IS NOT NULL;

-- unicode61 with remove_diacritics 2: words of any alphabet are tokens, "café" matches "cafe".
CREATE VIRTUAL TABLE history_fts USING fts5(
  text, scope,
  content = 'history_messages', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER history_fts_insert AFTER INSERT ON history_messages BEGIN
  INSERT INTO history_fts (rowid, text, scope) VALUES (new.id, new.text, new.scope);
END;
CREATE TRIGGER history_fts_delete AFTER DELETE ON history_messages BEGIN
  INSERT INTO history_fts (history_fts, rowid, text, scope) VALUES ('delete', old.id, old.text, old.scope);
END;
CREATE TRIGGER history_fts_update AFTER UPDATE OF text, scope ON history_messages BEGIN
  INSERT INTO history_fts (history_fts, rowid, text, scope) VALUES ('delete', old.id, old.text, old.scope);
  INSERT INTO history_fts (rowid, text, scope) VALUES (new.id, new.text, new.scope);
END;

-- HISTORY_RETENTION_DAYS prunes exchanges too, oldest first.
CREATE INDEX messages_by_time ON messages (created_at);
