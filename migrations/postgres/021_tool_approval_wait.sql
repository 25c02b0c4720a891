-- A tool step's time waiting for a person's approval before it ran, in ms (NULL: it needed none).
-- duration_ms is the tool's own time, without this wait.
ALTER TABLE turn_steps ADD COLUMN approval_wait_ms BIGINT;
