-- The operator's console (docs/console.md) pages through the newest turns of every workspace, reads
-- a turn's approvals, and the newest approvals: each through an index, so a page stays fast at
-- millions of turns. (A turn's question and answer are found by their time, messages_by_time.)
CREATE INDEX turns_by_time ON turns (started_at, id);
CREATE INDEX turns_by_channel ON turns (channel_id, started_at);
-- Turns that failed or were interrupted: a few of all (an answered turn never enters it), so a filter on them pages fast.
CREATE INDEX turns_not_answered ON turns (started_at) WHERE status IN ('failed', 'interrupted');
CREATE INDEX approvals_by_turn ON approvals (turn_id);
CREATE INDEX approvals_by_time ON approvals (requested_at, id);
