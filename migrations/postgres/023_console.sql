-- The operator's console (issue 28). Where a request for approval was decided: the platform's buttons
-- ('discord', 'slack', 'terminal') or the console ('console'). NULL: nobody decided (it timed out or
-- expired), or it was decided before this was recorded.
ALTER TABLE approvals ADD COLUMN decided_via TEXT;

-- The console's sessions (issue 28), shared by every process on the database: a sign-in in one is
-- good in all, and a sign-out everywhere. Kept under the SHA-256 of the cookie's secret (hex), never
-- the secret itself; the CSRF token is derived from the secret, so it is not kept either. Expired
-- sessions are refused, and deleted as new ones are made.
CREATE TABLE console_sessions (
  id_hash    TEXT    PRIMARY KEY,
  -- who signed in, as JSON: the user id, the operator or the platform and the workspaces its sign-in listed, the name shown
  viewer     TEXT    NOT NULL,
  created_at BIGINT  NOT NULL,
  expires_at BIGINT  NOT NULL
);
CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at);
