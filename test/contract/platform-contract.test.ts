import { afterEach, describe, expect, it } from "vitest";
import { reply, type RecordedRequest, type Responder } from "../fakes/fake-openai.js";
import { PNG_BYTES } from "../fakes/file-host.js";
import { longAnswer, words } from "../support/answers.js";
import { discordDriver } from "./drivers/discord.js";
import type { PlatformDriver } from "./drivers/driver.js";
import { slackDriver } from "./drivers/slack.js";
import { terminalDriver } from "./drivers/terminal.js";

const fences = (text: string) => (text.match(/^```/gm) ?? []).length;

/**
 * The platform contract: the same scenarios, written once, against the real Discord, Slack and
 * terminal adapters. Everything is asserted as a user would see it: messages on the fake
 * platforms, lines on the terminal. A scenario a platform cannot have is skipped there, and its
 * name says why.
 */

/** The texts of the messages of one role (user, assistant) in a request to the model, oldest first. */
const texts = (request: RecordedRequest, role: string): string[] =>
  request.body.messages.filter((m: { role: string; content: unknown }) => m.role === role && m.content).map((m: { content: string }) => m.content);
const userTexts = (request: RecordedRequest) => texts(request, "user");

/** Answers "re: <the question>", so every answer says which question it answers. */
const echo: Responder = (request) => ({ kind: "message", content: `re: ${userTexts(request).at(-1)}` });

const CIRCLE = "What is the circumference of a circle of radius 7.81?";

/** The steps of a circumference tool call, on any platform: the last one shows the result. */
const CIRCUMFERENCE_RESULT = /^✅ `?circumference`? `?\{"radius":7\.81\}`? → `?49\.0716772491/;

describe.each([discordDriver, slackDriver, terminalDriver])("the platform contract on $name", (platform) => {
  let driver: PlatformDriver | undefined;
  const start = async (env: Record<string, string> = {}) => (driver = await platform.start(env));
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  /** Asks a question that uses the circumference tool and waits for its answer. */
  const askWithTool = async (d: PlatformDriver) => {
    d.model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), reply.text("The circumference is about 49.07."));
    const question = await d.ask(CIRCLE);
    return { question, seen: await d.seen(question) };
  };

  it("answers a mention with its tool steps, then the answer", async () => {
    const d = await start();
    const { seen } = await askWithTool(d);

    expect(seen.steps.length).toBeGreaterThan(0);
    expect(seen.steps.every((step) => step.includes("circumference"))).toBe(true);
    expect(seen.steps.at(-1)).toMatch(CIRCUMFERENCE_RESULT);
    expect(seen.answer).toEqual(["The circumference is about 49.07."]);
    expect(userTexts(d.model.chatRequests[0]!)).toEqual([CIRCLE]);
  });

  it("answers a follow-up in the bot's thread without a mention, remembering the first question", async () => {
    const d = await start();
    const { question } = await askWithTool(d);
    d.model.script((request) => ({ kind: "message", content: `You asked: ${userTexts(request)[0]} I said: ${texts(request, "assistant")[0]}` }));

    const followUp = await d.followUp(question, "and what did we say before?");

    expect((await d.seen(followUp)).answer).toEqual([`You asked: ${CIRCLE} I said: The circumference is about 49.07.`]);
  });

  it.skipIf(!platform.can.redelivery)("answers a message delivered twice once (not on the terminal: it reads each line once)", async () => {
    const d = await start();
    d.model.otherwise(echo);
    const question = await d.ask("what is 6 times 7?");
    await d.seen(question);

    await d.deliverAgain(question);
    const sentinel = await d.ask("sentinel");
    await d.seen(sentinel);

    expect((await d.seen(question)).answer).toEqual(["re: what is 6 times 7?"]);
    expect(d.shown()).toEqual(["re: what is 6 times 7?", "re: sentinel"]);
    expect(d.model.chatRequests).toHaveLength(2);
  });

  it.skipIf(!platform.can.edits)("starts no second turn when the question is edited (not on the terminal: a line cannot be edited)", async () => {
    const d = await start();
    d.model.otherwise(echo);
    const question = await d.ask("what is 6 times 7?");
    await d.seen(question);

    await d.edit(question, "what is 6 times 8?");
    const sentinel = await d.ask("sentinel");
    await d.seen(sentinel);

    expect((await d.seen(question)).answer).toEqual(["re: what is 6 times 7?"]);
    expect(d.shown()).toEqual(["re: what is 6 times 7?", "re: sentinel"]);
    expect(d.model.chatRequests).toHaveLength(2);
  });

  it.skipIf(!platform.can.otherSenders)(
    "ignores other bots and system messages: no model call, nothing posted (not on the terminal: only its operator writes there)",
    async () => {
      const d = await start();
      const { question } = await askWithTool(d);
      const shownBefore = d.shown().length;
      const callsBefore = d.model.chatRequests.length;
      d.model.otherwise(echo);

      await d.askAsOtherBot("what is 2+2?");
      await d.systemMessage(question);
      const sentinel = await d.followUp(question, "sentinel");
      const seen = await d.seen(sentinel);

      expect(seen.answer).toEqual(["re: sentinel"]);
      expect(d.model.chatRequests).toHaveLength(callsBefore + 1);
      expect(d.shown().slice(shownBefore)).toEqual(["re: sentinel"]);
    },
  );

  it("splits a long answer at the platform's limit, losing no word and keeping code fences balanced", async () => {
    const d = await start();
    const long = longAnswer();
    d.model.script(reply.text(long));

    const { answer } = await d.seen(await d.ask("write a lot"));

    if (long.length > d.messageLimit) expect(answer.length).toBeGreaterThan(1);
    for (const part of answer) {
      expect(part.length).toBeLessThanOrEqual(d.messageLimit);
      expect(fences(part) % 2).toBe(0);
    }
    expect(words(answer.join("\n"))).toEqual(words(long));
  });

  it.skipIf(!platform.can.members)(
    "refuses a member's `tools disable calculator`, naming the platform's permission, and changes nothing (not on the terminal: it has no members)",
    async () => {
      const d = await start();
      d.model.otherwise(echo);

      const refusal = await d.command("tools disable calculator", "member");
      await d.seen(await d.ask("which tools?"));

      expect(refusal).toContain("Only admins can enable or disable tools.");
      expect(refusal).toMatch(d.adminPermission!);
      expect(d.model.toolsOffered(0)).toContain("calculator");
    },
  );

  it("applies an admin's `tools disable calculator` from the next turn on", async () => {
    const d = await start();
    d.model.otherwise(echo);
    await d.seen(await d.ask("which tools?"));

    const done = await d.command("tools disable calculator", "admin");
    await d.seen(await d.ask("and now?"));

    expect(done).toBe(d.shows("`calculator` is now disabled here."));
    expect(d.model.toolsOffered(0)).toContain("calculator");
    expect(d.model.toolsOffered(1)).not.toContain("calculator");
    expect(d.model.toolsOffered(1)).toContain("circumference");
  });

  it("shows the model an image it can see as an image part and inlines a log file, both shared with the question", async () => {
    const d = await start();
    d.model.script(reply.text("A dot, and step 3 failed."));
    const log = "step 1 ok\nstep 2 ok\nstep 3 FAILED: exit code 2";

    const question = await d.askWithFiles("what do these show?", [
      { name: "screenshot.png", contentType: "image/png", bytes: PNG_BYTES },
      { name: "build.log", contentType: "text/plain", bytes: Buffer.from(log) },
    ]);

    expect((await d.seen(question)).answer).toEqual(["A dot, and step 3 failed."]);
    const received = d.model.question(0);
    expect(received.images).toEqual([{ mediaType: "image/png", bytes: PNG_BYTES }]);
    const [text, image, header, ...rest] = received.text.split("\n");
    expect([text, image]).toEqual(["what do these show?", "[image: screenshot.png, 70 bytes — attached as image 1]"]);
    // The terminal's files declare no type: the name and the content decide there.
    expect(header).toMatch(/^\[text file: build\.log, (text\/plain, )?46 bytes\]$/);
    expect(rest.join("\n")).toBe(`${log}\n[end of build.log]`);
  });

  it("refuses a question over MAX_QUESTION_CHARS in the same words on every platform, without calling the model", async () => {
    const d = await start({ MAX_QUESTION_CHARS: "40" });
    const question = await d.ask("Please tell me everything there is to know about circles.");

    expect((await d.seen(question)).answer).toEqual(["Your message is too long for me (57 characters; the limit is 40). Could you shorten it?"]);
    expect(d.model.chatRequests).toHaveLength(0);
  });

  it("streams the answer: its first text shows before the model has finished, and it ends as the whole answer", async () => {
    const d = await start({ STREAM_EDIT_INTERVAL_MS: "150" });
    const answer = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
    d.model.script(reply.streamed(answer.split(/(?<= )/), { delayMs: 25 }));

    const question = await d.ask("stream it");
    const { answer: shown } = await d.seen(question);

    expect(shown).toEqual([answer]);
    expect(d.firstAnswerAt(question)).toBeLessThan(d.model.chatRequests[0]!.chunksAt.at(-1)!);
  });

  it("ends an answer the model broke off with the part shown and why, the same on every platform", async () => {
    const d = await start({ STREAM_EDIT_INTERVAL_MS: "100" });
    d.model.script(reply.streamed(["The first ", "half of ", "an answer ", "and the rest"], { delayMs: 30, breakAfter: 3 }));

    const { answer } = await d.seen(await d.ask("tell me"));

    expect(answer).toEqual([
      "The first half of an answer\n\n⚠️ _The answer stopped here._ The language model stopped answering part-way through. Please try again in a moment.",
    ]);
  });

  it("tells of a model failure in the same words on every platform", async () => {
    const d = await start();
    d.model.script(reply.status(500, "the model server broke at 10.0.0.7"));

    const { steps, answer } = await d.seen(await d.ask("hello?"));

    expect(steps).toEqual([]);
    expect(answer).toEqual(["⚠️ The language model had an internal error. Please try again in a moment."]);
  });
});
