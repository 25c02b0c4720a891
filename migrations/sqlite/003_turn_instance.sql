-- Which bot process ran a turn, so a restarting process marks only its own unfinished turns as
-- interrupted when several processes (Discord shards) share the database.
ALTER TABLE turns ADD COLUMN instance TEXT NOT NULL DEFAULT 'main';
