import { terminalText } from "../../../src/platforms/terminal/terminal-text.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { TerminalAdapter } from "../../../src/platforms/terminal/terminal-adapter.js";
import { servicesFor } from "../../../src/start-platforms.js";
import { startTestApp } from "../../support/test-app.js";
import { eventually, type DriverFactory, type PlatformDriver, type Seen, type Sent, type ShownApproval } from "./driver.js";

interface TerminalSent extends Sent {
  /** How many messages stdout had when the line was typed. */
  from: number;
}

const unsupported = (what: string) => () => Promise.reject(new Error(`the terminal has no ${what}`));

/** How a request for approval ended, as the terminal prints it. */
const OUTCOME = /^ {2}(✅ Approved|❌ Denied|⌛ )/;

/**
 * The real TerminalAdapter, started as `npm start` starts it (through `servicesFor`), reading
 * lines from a stream and writing to one. Each message the operator sees ends a line: steps
 * indented, answers after "bot: " (a streamed answer is written in pieces until its line ends).
 */
export const terminalDriver: DriverFactory = {
  name: "terminal",
  can: { redelivery: false, edits: false, otherSenders: false, members: false, restarts: false },
  async start(env = {}, options = {}) {
    const test = await startTestApp(env, options);
    const input = new PassThrough();
    const printed: string[] = [];
    // A streamed answer arrives in pieces; a message is complete when a write ends its line.
    let pending = "";
    /** When each message began to show, by its index in `printed`. */
    const startedAt: number[] = [];
    const output = new Writable({
      write(chunk, _encoding, done) {
        if (pending === "") startedAt[printed.length] = performance.now();
        pending += String(chunk);
        if (pending.endsWith("\n")) {
          printed.push(pending.replace(/\n$/, ""));
          pending = "";
        }
        done();
      },
    });
    const adapter = new TerminalAdapter(servicesFor(test.app, { streams: { input, output } }));
    const folder = mkdtempSync(join(tmpdir(), "agent-bot-attach-"));
    await adapter.start();
    const typed: number[] = [];
    const approvalsSeen: number[] = [];

    const type = (line: string): TerminalSent => {
      const from = printed.length;
      typed.push(from);
      input.write(`${line}\n`);
      return { text: line, from };
    };

    const driver: PlatformDriver = {
      model: test.model,
      messageLimit: Number.POSITIVE_INFINITY,
      ask: async (text) => type(text),
      async askWithFiles(text, files) {
        // The operator's files are on disk; their types are left to their names and content.
        for (const file of files) {
          writeFileSync(join(folder, file.name), file.bytes);
          type(`/attach ${join(folder, file.name)}`);
        }
        return type(text);
      },
      // The terminal is one conversation: the next line follows up.
      followUp: async (_first, text) => type(text),
      deliverAgain: unsupported("redelivery"),
      edit: unsupported("edits"),
      askAsOtherBot: unsupported("other senders"),
      systemMessage: unsupported("system messages"),
      async command(text, as) {
        if (as !== "admin") throw new Error("the terminal has no members: its operator is an admin");
        const { from } = type(`/${text}`);
        return eventually(() => printed[from], `the reply to /${text}`);
      },
      async seen(sent) {
        const { from } = sent as TerminalSent;
        const until = () => typed.find((start) => start > from) ?? printed.length;
        await eventually(() => printed.slice(from, until()).some((line) => line.startsWith("bot: ")), `the answer to "${sent.text}"`);
        await test.app.intake.idle();
        return classify(printed.slice(from, until()));
      },
      firstAnswerAt(sent) {
        const { from } = sent as TerminalSent;
        const index = printed.findIndex((line, i) => i >= from && line.startsWith("bot: "));
        return index === -1 ? undefined : startedAt[index];
      },
      async approval() {
        const after = approvalsSeen.at(-1) ?? -1;
        const at = await eventually(() => {
          const index = printed.findIndex((line, i) => i > after && line.includes("Approval needed"));
          return index >= 0 ? index : undefined;
        }, "a request for approval");
        approvalsSeen.push(at);
        const outcome = () => printed.slice(at + 1).find((line) => OUTCOME.test(line));
        return {
          text: () => (outcome() ?? printed[at]!).trim(),
          hasControls: () => outcome() === undefined,
          async press(decision, who) {
            if (who === "stranger") throw new Error("the terminal has no one but its operator");
            const from = printed.length;
            // An answer, not a question: it starts no turn of its own.
            input.write(`${decision === "approve" ? "yes" : "no"}\n`);
            const said = await eventually(
              () => printed.slice(from).find((line) => OUTCOME.test(line) || line.includes("Please type")),
              "the answer to a typed yes or no",
            );
            return OUTCOME.test(said) ? "" : said.trim();
          },
        } satisfies ShownApproval;
      },
      restart: unsupported("restart"),
      app: () => test.app,
      shown: () => [...printed],
      shows: (markdown) => terminalText(markdown, { styled: false }),
      async close() {
        input.end();
        await adapter.finished;
        await adapter.stop();
        await test.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
    return driver;
  },
};

function classify(lines: string[]): Seen {
  return {
    steps: lines.filter((line) => line.startsWith("  ")).map((line) => line.slice(2)),
    answer: lines.filter((line) => line.startsWith("bot: ")).map((line) => line.slice("bot: ".length)),
  };
}
