import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { PROJECT_ROOT, TSX_LOADER } from "../support/child-bot.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const run = promisify(execFile);

describe("npm run usage", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("exports every workspace's turns and tokens, by user, channel and model, with the cost and the 👍/👎, as CSV (--csv)", async () => {
    t = await startTestApp();
    t.model.otherwise(reply.text("ok", { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 }));
    const first = new RecordingSink();
    await t.app.runner.submit(request("one", { userId: "ann", channelId: "c1" }), first);
    await t.app.runner.submit(request("two", { userId: "bob", channelId: "t9", parentChannelId: "c1" }), new RecordingSink());
    const turnId = first.replies[0]!.turnId;
    await t.app.store.feedback.vote({ platform: "test", workspaceId: "w1", turnId, userId: "bob", vote: "up" });
    await t.app.store.feedback.vote({ platform: "test", workspaceId: "w1", turnId, userId: "cat", vote: "down" });
    await t.app.runner.submit(request("three", { workspaceId: "w2" }), new RecordingSink());

    // As an operator runs it: its own process, the bot's database, prices from the environment.
    const env = { PATH: process.env.PATH ?? "", DATABASE_PATH: t.dbPath, MODEL_PRICES: "gpt-4o-mini=1/2" };
    const { stdout } = await run(process.execPath, ["--import", TSX_LOADER, resolve(PROJECT_ROOT, "src/ops/usage-cli.ts"), "--csv"], { cwd: t.dir, env });
    const lines = stdout.trim().split("\n");

    expect(lines[0]).toBe("period_days,platform,workspace,group,key,turns,tokens_in,tokens_out,cost_usd,thumbs_up,thumbs_down");
    const w1 = lines.filter((line) => line.startsWith("1,test,w1,"));
    expect(w1).toEqual([
      "1,test,w1,total,,2,200,100,0.000400,,",
      "1,test,w1,user,ann,1,100,50,,,",
      "1,test,w1,user,bob,1,100,50,,,",
      // a thread's turn counts for its channel
      "1,test,w1,channel,c1,2,200,100,,1,1",
      "1,test,w1,model,gpt-4o-mini,2,200,100,0.000400,1,1",
    ]);
    expect(lines).toContain("30,test,w2,total,,1,100,50,0.000200,,");
    expect(lines).toContain("30,test,w2,model,gpt-4o-mini,1,100,50,0.000200,0,0");

    const text = await run(process.execPath, ["--import", TSX_LOADER, resolve(PROJECT_ROOT, "src/ops/usage-cli.ts")], { cwd: t.dir, env });
    expect(text.stdout).toContain("Feedback by model: `gpt-4o-mini` 👍 1 👎 1\nFeedback by channel: <#c1> 👍 1 👎 1");
  });

  it("prints each budget's use in its current window, with its limit and source (--budgets)", async () => {
    t = await startTestApp({ CHANNEL_DAILY_TOKEN_BUDGET: "50k", MONTHLY_BUDGET: "$10", MODEL_PRICES: "gpt-4o-mini=1000/2000" });
    t.model.otherwise(reply.text("ok", { prompt_tokens: 1_000, completion_tokens: 500, total_tokens: 1_500 }));
    await t.app.runner.submit(request("one", { channelId: "c1" }), new RecordingSink());
    await t.app.runner.submit(request("two", { channelId: "t9", parentChannelId: "c1" }), new RecordingSink());

    const env = {
      PATH: process.env.PATH ?? "",
      DATABASE_PATH: t.dbPath,
      CHANNEL_DAILY_TOKEN_BUDGET: "50k",
      MONTHLY_BUDGET: "$10",
      MODEL_PRICES: "gpt-4o-mini=1000/2000",
    };
    const { stdout } = await run(process.execPath, ["--import", TSX_LOADER, resolve(PROJECT_ROOT, "src/ops/usage-cli.ts"), "--budgets"], { cwd: t.dir, env });

    // A thread's calls count to its channel; each turn cost $1 + $1.
    expect(stdout.trim().split("\n").sort()).toEqual([
      "test w1: the daily budget of <#c1>: 3,000 tokens of 50,000 tokens (6%); CHANNEL_DAILY_TOKEN_BUDGET",
      "test w1: this workspace's monthly budget: $4.00 of $10.00 (40%); MONTHLY_BUDGET",
    ]);
  });
});
