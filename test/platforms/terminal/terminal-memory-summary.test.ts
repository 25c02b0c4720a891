import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../fakes/fake-openai.js";
import { startChildBot } from "../../support/child-bot.js";
import { useModelAndFolder } from "../../support/model-and-folder.js";

const isSummary = (req: RecordedRequest) => String(req.body.messages[0]?.content ?? "").startsWith("You keep the running summary of a group chat");

describe("the terminal: the summary of what left the memory window", () => {
  const scratch = useModelAndFolder("agent-bot-terminal-summary-");
  const env = () => ({
    OPENAI_BASE_URL: scratch.model.url,
    OPENAI_MAX_RETRIES: "0",
    DATABASE_PATH: join(scratch.dir, "data/bot.sqlite"),
    MEMORY_WINDOW: "1",
    MEMORY_SUMMARY_BATCH: "1",
  });

  it("summarizes the session's earlier exchanges (on by default), says so once, and /memory show shows summary, index and window", async () => {
    scratch.model.otherwise((req) =>
      isSummary(req)
        ? { kind: "message", content: "- The operator shared the runbook link." }
        : { kind: "message", content: `answer to ${req.body.messages.at(-1).content}` },
    );
    const first = startChildBot(env(), scratch.dir);
    first.process.stdin.end("the runbook is at https://example.com/runbook\nsecond question\nthird question\n");
    expect((await first.exited).code).toBe(0);
    expect(first.stdout()).toContain("bot: answer to third question");
    expect(first.stdout().match(/^bot: I keep a summary of earlier messages here — `?\/memory show`?$/gm)).toHaveLength(1);
    const summaries = scratch.model.chatRequests.filter(isSummary);
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    expect(String(summaries[0]!.body.messages[1].content)).toMatch(/\] \S+: the runbook is at https:\/\/example\.com\/runbook/);

    const second = startChildBot(env(), scratch.dir);
    second.process.stdin.end("/memory show\n");
    expect((await second.exited).code).toBe(0);
    const shown = second.stdout();
    expect(shown).toContain("Summary of earlier messages");
    expect(shown).toContain("• The operator shared the runbook link.");
    expect(shown).toMatch(/• https:\/\/example\.com\/runbook \(\S+, terminal message [\w-]+\)/);
    expect(shown).toContain("third question");
  });
});
