import { afterEach, describe, expect, it } from "vitest";
import { parseCommandText } from "../../src/runner/commands/command-text.js";
import { FakeAnthropic } from "../fakes/fake-anthropic.js";
import type { Responder } from "../fakes/fake-openai.js";
import { reply } from "../fakes/fake-openai.js";
import { sentPromptTokens } from "../support/sent-prompt.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const admin = { userId: "boss", role: "admin" as const };
const usage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });

/** A step that says something and calls the calculator, costing `prompt` + `completion` tokens. */
const sayAndCalculate =
  (text: string, prompt: number, completion: number): Responder =>
  () => ({
    kind: "message",
    content: text,
    toolCalls: [{ id: `call_${prompt}`, name: "calculator", arguments: JSON.stringify({ expression: "6*7" }) }],
    usage: usage(prompt, completion),
  });

/** An answer that uses every token it was allowed (max_tokens), as a long answer cut off would. */
const answerUsingAll: Responder = (sent) => ({ kind: "message", content: "Forty-two, and here is why", usage: usage(100, sent.body.max_tokens) });

describe("budgets checked before every model call", () => {
  let t: TestApp;
  afterEach(() => t.close());

  const command = async (text: string) => t.app.commands.execute(parseCommandText(text)!, request(""), admin);
  const ask = async (text: string) => {
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request(text), sink);
    return { result, shown: sink.replies.at(-1)?.text ?? "" };
  };

  it("a channel budget stops the next call of a multi-step turn: the answer so far, then the budget reached", async () => {
    t = await startTestApp();
    expect((await command("settings budget channel day 2000")).text).toContain("Set <#c1>'s daily budget to 2,000 tokens");
    t.model.script(sayAndCalculate("Let me work that out.", 1_900, 90));

    const { result, shown } = await ask("What is 6 times 7?");

    expect(t.model.chatRequests).toHaveLength(1);
    expect(result).toMatchObject({ status: "answered", outcome: "budget_reached" });
    expect(shown).toMatch(
      /^Let me work that out\.\n\n_I stopped here: the daily budget of <#c1> \(2,000 tokens\) is used up until \d{4}-\d\d-\d\d 00:00 UTC\._$/,
    );

    // The next turn makes no call at all, and says why.
    const next = await ask("And 7 times 8?");
    expect(t.model.chatRequests).toHaveLength(1);
    expect(next.shown).toContain("the daily budget of <#c1> (2,000 tokens) is used up");
  });

  it("sends the last call with max_tokens equal to what remains after its prompt, and says the budget was reached", async () => {
    t = await startTestApp({ CHANNEL_DAILY_TOKEN_BUDGET: "10000" });
    t.model.script(sayAndCalculate("", 6_000, 2_000), answerUsingAll);

    const { result, shown } = await ask("What is 6 times 7?");

    expect(t.model.chatRequests).toHaveLength(2);
    // The first call was not limited: the budget left it more than a call's usual answer.
    expect(t.model.chatRequests[0]!.body.max_tokens).toBeUndefined();
    const last = t.model.chatRequests[1]!.body;
    expect(last.max_tokens).toBe(10_000 - 8_000 - sentPromptTokens(last));
    expect(result.outcome).toBe("budget_reached");
    expect(shown).toMatch(/^Forty-two, and here is why\n\n_I stopped here: the daily budget of <#c1> \(10,000 tokens\) is used up/);
  });

  it("prices each call for a budget in dollars, and refuses one for a model without a price", async () => {
    t = await startTestApp();
    expect(await command("settings budget workspace day $5")).toEqual({
      ok: false,
      text: "A budget in dollars needs each model's price, and MODEL_PRICES has none for gpt-4o-mini. Set one, or give the budget in tokens.",
    });
    await t.close();

    // $1,000 and $2,000 per million tokens: a thousandth and two thousandths of a dollar a token.
    t = await startTestApp({ MODEL_PRICES: "gpt-4o-mini=1000/2000" });
    expect((await command("settings budget workspace day 5 USD")).text).toContain("Set this server's daily budget to $5.00");
    t.model.script(reply.text("First answer.", usage(1_000, 1_000)), answerUsingAll);
    await ask("one");
    expect((await command("settings show")).text).toContain("- This workspace's daily budget: $3.00 of $5.00 used (60%); set by <@boss>");

    await ask("two");
    const last = t.model.chatRequests[1]!.body;
    expect(last.max_tokens).toBe(Math.floor((2 - sentPromptTokens(last) / 1_000) / 0.002));
  });

  it("keeps DAILY_TOKEN_BUDGET working before each call, and lists the budgets with their sources", async () => {
    t = await startTestApp({ DAILY_TOKEN_BUDGET: "10000", DAILY_USER_TOKEN_BUDGET: "8000" });
    t.model.otherwise(reply.text("ok", usage(3_000, 1_000)));
    await ask("one");
    const shown = (await command("settings show")).text;
    expect(shown).toContain("- This workspace's daily budget: 4,000 tokens of 10,000 tokens used (40%); DAILY_TOKEN_BUDGET");
    expect(shown).toContain("- The daily budget of <@boss>: 0 tokens of 8,000 tokens used (0%); DAILY_USER_TOKEN_BUDGET");
    expect((await command("settings budget user <@u1> day 3000")).text).toContain("Set <@u1>'s daily budget to 3,000 tokens");
    const refused = await ask("two");
    // Refused at the turn's start (nothing left for a call), told as the asker's own budget, not a mention.
    expect(refused.shown).toContain("Your daily budget (3,000 tokens) is used up until");
    expect((await command("settings budget user <@u1> day clear")).ok).toBe(true);
    expect((await ask("three")).result.outcome).toBe("answer");
  });

  it("writes each budget command into the settings audit, by whom, like every setting's change", async () => {
    t = await startTestApp();
    const ws = { platform: "test", workspaceId: "w1" };
    expect((await command("settings budget channel day 2000")).ok).toBe(true);
    expect((await command("settings budget user <@u1> month 5000")).ok).toBe(true);
    expect((await command("settings budget channel day clear")).ok).toBe(true);
    const changes = await t.app.store.audit.changesSince(ws, 0, 10);
    expect(changes.map(({ key, value, changedBy }) => ({ key, value, changedBy }))).toEqual([
      { key: "budget:channel:c1:day", value: '{"unit":"tokens","amount":2000}', changedBy: "boss" },
      { key: "budget:user:u1:month", value: '{"unit":"tokens","amount":5000}', changedBy: "boss" },
      { key: "budget:channel:c1:day", value: "null", changedBy: "boss" },
    ]);
  });

  it("limits the Anthropic provider's max_tokens the same way (its prompt estimated, not tokenized)", async () => {
    const claude = await FakeAnthropic.start();
    try {
      t = await startTestApp({ OPENAI_MODELS: "openai:fake-model,anthropic:claude-test", ANTHROPIC_BASE_URL: claude.url, STREAM_ANSWERS: "false" });
      await t.app.commands.execute(parseCommandText("settings channel model anthropic:claude-test")!, request(""), admin);
      await command("settings budget channel day 3000");
      claude.script(reply.text("From Claude."));

      const { result } = await ask("who are you?");

      expect(result.text).toBe("From Claude.");
      const sent = claude.chatRequests[0]!.body.max_tokens;
      // Without the budget it would be ANTHROPIC_MAX_TOKENS (4096); the prompt's estimate comes off the 3,000.
      expect(sent).toBeGreaterThan(64);
      expect(sent).toBeLessThan(3_000 - 100);
    } finally {
      await claude.close();
    }
  });

  it("reads the budget commands as admins type them, and refuses what it cannot read", async () => {
    t = await startTestApp();
    expect((await command("settings budget user day 5k")).text).toBe(
      "Set each member's daily budget to 5,000 tokens. Every model call is checked against it from now on.",
    );
    expect((await command("settings budget workspace month 2M")).text).toContain("Set this server's monthly budget to 2,000,000 tokens");
    expect(await command("settings budget channel day lots")).toEqual({
      ok: false,
      text: 'I can\'t read "lots" as a budget: write tokens ("50000", "50k") or dollars ("$5", "5 USD").',
    });
    expect((await command("settings alerts-channel <#C9>")).text).toBe("Budget alerts now go to <#C9>.");
    expect((await command("settings alerts-channel clear")).text).toBe("Budget alerts now go to each admin by direct message.");
    const member = await t.app.commands.execute(parseCommandText("settings budget workspace day 10")!, request(""), { userId: "u1", role: "member" });
    expect(member).toMatchObject({ ok: false, denied: "admin" });
    expect((await command("settings show")).text).toContain("- The daily budget of <@boss>: 0 tokens of 5,000 tokens used (0%); set by <@boss>");
  });
});
