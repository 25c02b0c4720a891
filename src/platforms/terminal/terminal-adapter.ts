import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import { createInterface } from "node:readline";
import type { Actor } from "../../runner/incoming.js";
import type { PlatformLink } from "../../runner/platform-link.js";
import type { PlatformAdapter, PlatformServices } from "../platform.js";
import { terminalSurface } from "./terminal-surface.js";

const PLATFORM = "terminal";
const PLACE = { platform: PLATFORM, workspaceId: "local", channelId: "terminal", isDm: false } as const;

/**
 * The terminal: each line is a question, steps print as they happen, then the answer. Lines
 * starting with "/" are commands (/tools, /tools enable NAME, /memory clear, /help, ...). The
 * person at the terminal is its operator: an admin, never rate limited. `finished` resolves at the
 * end of input, once the last question has been answered.
 */
export class TerminalAdapter implements PlatformAdapter {
  readonly name = PLATFORM;
  readonly interactive = true;
  readonly finished: Promise<void>;
  private finish!: () => void;
  private link?: PlatformLink;
  private endAnswer = () => {};

  constructor(private readonly services: PlatformServices<object>) {
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  async start(): Promise<void> {
    const { output } = this.services.streams;
    const surface = terminalSurface((text) => output.write(text));
    const write = (text: string) => {
      surface.endLine();
      output.write(`${text}\n`);
    };
    this.endAnswer = () => surface.endLine();
    this.link = this.services.connect({
      surface,
      allowDms: false,
      hasRoles: false,
      commandName: (group) => `/${group}`,
      roleNames: { admin: "", moderator: "" },
    });
    void this.converse(this.link, write).finally(() => this.finish());
  }

  async stop(): Promise<void> {
    this.finish();
  }

  health(): { connected: boolean; detail?: string } {
    return { connected: true, detail: "stdin" };
  }

  private async converse(link: PlatformLink, write: (text: string) => void): Promise<void> {
    const { input, output } = this.services.streams;
    const interactive = (input as { isTTY?: boolean }).isTTY === true;
    const lines = createInterface({ input, output: interactive ? output : undefined, terminal: interactive });
    const actor = operator();
    const prompt = () => interactive && lines.prompt();
    if (interactive) {
      write("Talk to the bot. Commands: /help lists them. Ctrl-D quits.");
      lines.setPrompt("you> ");
    }
    prompt();
    for await (const raw of lines) {
      const text = raw.trim();
      if (text.startsWith("/")) {
        const command = link.parseCommand(text);
        write(command ? link.runCommand(command, { ...PLACE, actor }).text : `Unknown command "${text}". Try /help.`);
      } else if (text !== "") {
        await link.receive({
          ...PLACE,
          messageId: randomUUID(),
          actor,
          text,
          mentionsBot: true,
          attachments: [],
          isEdit: false,
          isSystem: false,
          isOwn: false,
        });
        this.endAnswer();
      }
      prompt();
    }
  }
}

export const create = (services: PlatformServices<object>) => new TerminalAdapter(services);

function operator(): Actor {
  let name = "you";
  try {
    name = userInfo().username;
  } catch {
    // no user database entry (some containers): keep "you"
  }
  return { id: name, name, role: "admin", isBot: false, operator: true };
}
