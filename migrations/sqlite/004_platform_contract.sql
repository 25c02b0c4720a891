-- Which conversation a follow-up in a bot thread continues: the thread's own ('thread', every thread
-- from now on) or its channel's ('channel', Slack threads of earlier versions, kept working as they were).
ALTER TABLE bot_threads ADD COLUMN scope TEXT NOT NULL DEFAULT 'thread' CHECK (scope IN ('thread', 'channel'));
UPDATE bot_threads SET scope = 'channel'
  WHERE platform = 'slack' AND EXISTS (
    SELECT 1 FROM bot_threads marker
    WHERE marker.platform = 'slack:channel-scope' AND marker.channel_id = bot_threads.channel_id AND marker.thread_id = bot_threads.thread_id
  );
DELETE FROM bot_threads WHERE platform = 'slack:channel-scope';

-- Discord direct messages now share one workspace, "dm", whose daily token budget caps them all.
UPDATE conversations SET workspace_id = 'dm' WHERE platform = 'discord' AND workspace_id LIKE 'dm:%';

-- The terminal is a platform like the others, named "terminal" (it was "console").
UPDATE conversations SET platform = 'terminal' WHERE platform = 'console';
UPDATE tool_settings SET platform = 'terminal' WHERE platform = 'console';
UPDATE workspace_settings SET platform = 'terminal' WHERE platform = 'console';
UPDATE settings_changes SET platform = 'terminal' WHERE platform = 'console';
UPDATE token_usage_daily SET platform = 'terminal' WHERE platform = 'console';
