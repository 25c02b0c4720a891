import Database from "better-sqlite3";
import { describe, expect } from "vitest";
import { botTest as it } from "../support/started-bots.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request } from "../support/test-app.js";

/** Another process's connection that holds the database's write lock until released. */
function holdWriteLock(path: string): () => void {
  const other = new Database(path);
  other.exec("BEGIN IMMEDIATE");
  return () => {
    other.exec("ROLLBACK");
    other.close();
  };
}

describe("a store that fails inside a turn", () => {
  it("ends the turn with a short message, leaves nothing in flight, and the next turn works", async ({ startApp }) => {
    const t = await startApp();
    t.model.otherwise(reply.text("fine"));
    const release = holdWriteLock(t.dbPath);
    const sink = new RecordingSink();
    const locked = await t.app.runner.submit(request("while locked"), sink);
    release();

    expect(locked).toMatchObject({ status: "failed", outcome: "error" });
    expect(sink.replies[0]!.text).toBe("Sorry, something went wrong on my side. The details are in the bot's log.");
    expect(t.app.runner.inFlight).toBe(0);
    expect(t.app.runner.activeConversations).toBe(0);
    expect(t.model.chatRequests).toHaveLength(0);
    const next = await t.app.runner.submit(request("and now?"), new RecordingSink());
    expect(next).toMatchObject({ status: "answered", text: "fine" });
    // the failed turn left no half exchange behind
    expect(t.store.db.prepare("SELECT text FROM messages ORDER BY id").pluck().all()).toEqual(["and now?", "fine"]);
  });

  it("answers a Slack mention with the short message instead of silence", async ({ startSlack }) => {
    // The lock holder lives in this process, so SQLite's busy wait stalls the fake Slack too and
    // an idle keep-alive socket can be reset meanwhile: let the Web API client retry, as it does in production.
    const h = await startSlack({ adapter: { clientOptions: { retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 50 } } } });
    h.slack.addUser({ id: "U1", name: "alice" });
    const release = holdWriteLock(h.t.dbPath);
    const ts = h.slack.nextTs();
    try {
      await h.mention({ user: "U1", channel: "C1", ts, text: "are you there?" });
      await h.slack.waitFor(() => h.slack.thread("C1", ts).length === 1, { what: "the apology", timeoutMs: 20_000 });
    } finally {
      release();
    }
    expect(h.slack.thread("C1", ts)[0]!.text).toBe("⚠️ Sorry, something went wrong on my side. The details are in the bot's log.");
    expect(h.model.chatRequests).toHaveLength(0);
  }, 30_000);
});
