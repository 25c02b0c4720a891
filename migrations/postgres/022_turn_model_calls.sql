-- Each request a turn made to a model (issue 28), written with the turn's closing: its model and
-- provider, why it was made (the turn's own loop, or a tool's side question), whether it retried a
-- failed one, its timing from the turn's clock and its tokens. outcome is 'ok' or the failure's
-- code (rate_limited, timeout, interrupted…); tokens are NULL where the provider did not say.
CREATE TABLE turn_model_calls (
  turn_id           TEXT    NOT NULL REFERENCES turns(id),
  seq               INTEGER NOT NULL,
  model             TEXT    NOT NULL,
  provider          TEXT    NOT NULL,
  purpose           TEXT    NOT NULL,
  retry             BOOLEAN NOT NULL,
  started_at        BIGINT  NOT NULL,
  duration_ms       BIGINT  NOT NULL,
  first_token_ms    BIGINT,
  prompt_tokens     BIGINT,
  completion_tokens BIGINT,
  outcome           TEXT    NOT NULL,
  -- How many of the turn's tool steps had begun when the call ended: the console's timeline shows it after them.
  after_step        INTEGER NOT NULL,
  PRIMARY KEY (turn_id, seq)
);
-- The turn's OpenTelemetry trace id (32 hex digits), when traces are exported (OTEL_EXPORTER_OTLP_ENDPOINT).
ALTER TABLE turns ADD COLUMN trace_id TEXT;
-- The link people open the question's message with (a Discord jump URL, a Slack permalink), as
-- its platform made it; the answer is the reply to it (or in its thread). NULL on the terminal.
ALTER TABLE turns ADD COLUMN link TEXT;
