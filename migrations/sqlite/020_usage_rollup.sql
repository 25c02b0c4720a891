-- The daily usage rollup (issue 28): what /usage, `npm run usage` and the console's usage page read
-- instead of grouping every turn of the period. A turn is added once it has ended (its close, a
-- reaper marking it interrupted, a summary call's record), in the same transaction, to the day
-- (UTC, days since the epoch) it started on. Two tables, one per ranking the reports need: by
-- channel, model and kind (the totals, the channels, the models, the kinds), and by user (people's
-- turns only). One table keyed by channel and user together would hold about a row per turn in a
-- busy workspace, and grouping it would cost what grouping the turns does.
CREATE TABLE usage_daily (
  platform          TEXT    NOT NULL,
  workspace_id      TEXT    NOT NULL,
  day               INTEGER NOT NULL,
  channel_id        TEXT    NOT NULL,
  model             TEXT    NOT NULL,
  kind              TEXT    NOT NULL,
  turns             INTEGER NOT NULL,
  prompt_tokens     INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  total_tokens      INTEGER NOT NULL,
  PRIMARY KEY (platform, workspace_id, day, channel_id, model, kind)
) WITHOUT ROWID;
-- The operators' export lists the workspaces with turns in the last 30 days.
CREATE INDEX usage_daily_by_day ON usage_daily (day);

CREATE TABLE usage_daily_users (
  platform          TEXT    NOT NULL,
  workspace_id      TEXT    NOT NULL,
  day               INTEGER NOT NULL,
  user_id           TEXT    NOT NULL,
  turns             INTEGER NOT NULL,
  prompt_tokens     INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  total_tokens      INTEGER NOT NULL,
  PRIMARY KEY (platform, workspace_id, day, user_id)
) WITHOUT ROWID;

-- The turns already recorded (running ones are added when they end).
INSERT INTO usage_daily (platform, workspace_id, day, channel_id, model, kind, turns, prompt_tokens, completion_tokens, total_tokens)
SELECT c.platform, c.workspace_id, t.started_at / 86400000, COALESCE(t.channel_id, c.channel_id), COALESCE(t.model, ''), t.kind,
  COUNT(*), SUM(t.prompt_tokens), SUM(t.completion_tokens), SUM(t.total_tokens)
FROM turns t JOIN conversations c ON c.id = t.conversation_id
WHERE t.status <> 'running'
GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO usage_daily_users (platform, workspace_id, day, user_id, turns, prompt_tokens, completion_tokens, total_tokens)
SELECT c.platform, c.workspace_id, t.started_at / 86400000, t.user_id,
  COUNT(*), SUM(t.prompt_tokens), SUM(t.completion_tokens), SUM(t.total_tokens)
FROM turns t JOIN conversations c ON c.id = t.conversation_id
WHERE t.status <> 'running' AND t.kind = 'turn'
GROUP BY 1, 2, 3, 4;
