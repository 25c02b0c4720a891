import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { startChildBot } from "../support/child-bot.js";
import { useModelAndFolder } from "../support/model-and-folder.js";

describe("npm start, against a model that misbehaves", () => {
  const scratch = useModelAndFolder("agent-bot-hostile-start-");
  const env = (extra: Record<string, string> = {}) => ({
    OPENAI_BASE_URL: scratch.model.url,
    DATABASE_PATH: join(scratch.dir, "bot.sqlite"),
    ...extra,
  });

  it("stops on SIGTERM within its grace period while the model asks it to come back in an hour", async () => {
    scratch.model.otherwise(reply.status(429, "slow down", { "retry-after": "3600" }));
    const bot = startChildBot(env({ SHUTDOWN_GRACE_MS: "1500" }), scratch.dir);
    bot.process.stdin.write("hello?\n");
    while (scratch.model.chatRequests.length === 0) await new Promise((r) => setTimeout(r, 20));
    const signalled = performance.now();
    bot.process.kill("SIGTERM");
    const { code } = await bot.exited;
    const stopMs = performance.now() - signalled;

    expect(code).toBe(143);
    expect(stopMs).toBeLessThan(5_000); // before: still running 30 s later
    expect(bot.stdout()).toContain("bot: ⚠️ The bot restarted before I could finish this.");
  });

  it("reads a text-protocol reply of 200,000 blanks after 'Action' quickly and answers in time", async () => {
    scratch.model.script(
      reply.text(`Thought: I will use a tool.\nAction:${" ".repeat(200_000)}`),
      reply.text('```json\n{"action": "Final Answer", "action_input": "Recovered."}\n```'),
    );
    const bot = startChildBot(env({ AGENT_PROTOCOL: "react", TURN_TIMEOUT_MS: "10000" }), scratch.dir);
    const started = performance.now();
    bot.process.stdin.end("hi\n");
    expect((await bot.exited).code).toBe(0);

    expect(bot.stdout()).toContain("bot: Recovered.");
    expect(performance.now() - started).toBeLessThan(10_000); // before: 27 s in the parser alone
  });
});
