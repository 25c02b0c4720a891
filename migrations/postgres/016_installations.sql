-- Installations of the app in a platform's workspaces (Slack's "Add to Slack"): one row per
-- workspace, or per Enterprise Grid organisation for an org-wide install (install_key says which:
-- "team:T…" or "enterprise:E…"). `sealed` is the installation with its tokens, encrypted with
-- SECRETS_KEY (AES-256-GCM; see src/store/secrets.ts): the database never holds a token in clear.
CREATE TABLE platform_installations (
  platform       TEXT    NOT NULL,
  install_key    TEXT    NOT NULL,
  team_id        TEXT,
  enterprise_id  TEXT,
  sealed         TEXT    NOT NULL,
  -- When the bot token expires (epoch ms) with token rotation on; NULL for tokens that do not.
  expires_at     BIGINT,
  installed_at   BIGINT  NOT NULL,
  updated_at     BIGINT  NOT NULL,
  PRIMARY KEY (platform, install_key)
);
