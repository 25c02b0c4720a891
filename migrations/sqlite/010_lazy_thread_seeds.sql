-- A thread the bot opens on a top-level question starts its conversation with that exchange, but
-- most threads never get a follow-up: the exchange is no longer copied into them when the turn
-- closes. The thread's conversation row only points at the turn (seed_turn_id); the first time it
-- is opened (the first follow-up), the turn's exchange is copied in and the pointer cleared.
ALTER TABLE conversations ADD COLUMN seed_turn_id TEXT;
-- Seeds never used are pruned past BOT_THREAD_RETENTION_DAYS, oldest first.
CREATE INDEX conversations_seeded ON conversations (created_at) WHERE seed_turn_id IS NOT NULL;
-- Bot threads are pruned past the same retention (created_at then means: last seen in use).
CREATE INDEX bot_threads_by_age ON bot_threads (created_at);
