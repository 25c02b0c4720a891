-- The operator's console (docs/console.md) pages through the newest turns of every workspace, reads
-- a turn's question and answer and its approvals, and the newest approvals: each through an index,
-- so a page stays fast at millions of turns.
CREATE INDEX turns_by_time ON turns (started_at, id);
CREATE INDEX messages_by_turn ON messages (turn_id) WHERE turn_id IS NOT NULL;
CREATE INDEX approvals_by_turn ON approvals (turn_id);
CREATE INDEX approvals_by_time ON approvals (requested_at, id);
