-- Backfills of a channel's history (issue 24 §2, `/settings channel history backfill DAYS`): earlier
-- messages read through the platform's history API, page by page, into history_messages. One row
-- per channel; `cursor` is where the next page starts (the platform's own paging value), so a
-- backfill resumes after a restart where it stopped. claimed_by/claimed_until: the process reading
-- it now holds it until then (one at a time, across processes).
CREATE TABLE history_backfills (
  platform       TEXT    NOT NULL,
  workspace_id   TEXT    NOT NULL,
  channel_id     TEXT    NOT NULL,
  requested_by   TEXT    NOT NULL,
  -- the oldest message time to read (epoch ms)
  since          BIGINT  NOT NULL,
  cursor         TEXT,
  -- messages indexed so far, and the time of the oldest of them (epoch ms)
  read_count     INTEGER NOT NULL DEFAULT 0,
  oldest_at      BIGINT,
  -- running, done or failed
  status         TEXT    NOT NULL DEFAULT 'running',
  claimed_by     TEXT,
  claimed_until  BIGINT  NOT NULL DEFAULT 0,
  started_at     BIGINT  NOT NULL,
  updated_at     BIGINT  NOT NULL,
  PRIMARY KEY (platform, workspace_id, channel_id)
);
CREATE INDEX history_backfills_running ON history_backfills (platform, status);

-- search_history on a channel's newest rows first (common words: their newest matches are there,
-- without visiting every row the GIN index names); see src/store/postgres/history.ts.
CREATE INDEX history_by_channel ON history_messages (platform, workspace_id, channel_id, id);
-- search_history's author filter: the channel's people it names, read from this index alone.
CREATE INDEX history_channel_authors ON history_messages (platform, workspace_id, channel_id, author_id, author_name);
