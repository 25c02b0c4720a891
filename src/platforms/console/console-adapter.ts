import { userInfo } from "node:os";
import { createInterface } from "node:readline";
import type { App } from "../../app.js";
import { parseCommandText } from "../../runner/commands.js";
import type { ReplySink, StepEvent, TurnRequest } from "../../runner/types.js";

const CONVERSATION = { platform: "console", workspaceId: "local", channelId: "terminal" } as const;

export interface ConsoleOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/**
 * The terminal: each line is a turn, steps print as they happen, then the answer.
 * Lines starting with "/" are commands (/tools, /tools enable NAME, /memory clear, ...).
 * The terminal user is the admin. Resolves at end of input once the last turn has answered.
 */
export async function runConsole(app: App, { input, output }: ConsoleOptions): Promise<void> {
  const interactive = (input as { isTTY?: boolean }).isTTY === true;
  const lines = createInterface({ input, output: interactive ? output : undefined, terminal: interactive });
  const write = (text: string) => output.write(`${text}\n`);
  const user = safeUserName();
  const prompt = () => interactive && lines.prompt();

  if (interactive) {
    write("Talk to the bot. Commands: /tools, /tools enable NAME, /tools disable NAME, /memory show, /memory clear. Ctrl-D quits.");
    lines.setPrompt("you> ");
  }
  prompt();
  for await (const raw of lines) {
    const text = raw.trim();
    if (text === "") {
      prompt();
      continue;
    }
    if (text.startsWith("/")) {
      const command = parseCommandText(text);
      write(
        command
          ? app.commands.execute(command, CONVERSATION, { userId: user, isAdmin: true }).text
          : `Unknown command "${text}". Try /help.`,
      );
    } else {
      const request: TurnRequest = { ...CONVERSATION, userId: user, userName: user, text, isAdmin: true };
      await app.runner.submit(request, consoleSink(write));
    }
    prompt();
  }
}

function consoleSink(write: (text: string) => void): ReplySink {
  return {
    step: (event) => write(formatStep(event)),
    reply: (reply) => write(`bot: ${reply.text}`),
  };
}

export function formatStep(event: StepEvent): string {
  switch (event.type) {
    case "tool_started":
      return `  → ${event.tool} ${JSON.stringify(event.args)}`;
    case "tool_finished":
      return `  ← ${event.tool}: ${event.output} (${event.durationMs} ms)`;
    case "tool_failed":
      return `  ✗ ${event.tool}: ${event.error}`;
  }
}

function safeUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return "you";
  }
}
