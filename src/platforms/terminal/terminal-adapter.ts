import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import { createInterface } from "node:readline";
import type { Actor, AttachmentDescriptor } from "../../runner/incoming.js";
import type { PlatformLink } from "../../runner/platform-link.js";
import type { PlatformAdapter, PlatformServices } from "../platform.js";
import { describeLocalFile, localFiles } from "./local-files.js";
import { terminalSurface } from "./terminal-surface.js";

const PLATFORM = "terminal";
const PLACE = { platform: PLATFORM, workspaceId: "local", channelId: "terminal", isDm: false } as const;

/** The terminal's own command, for what a chat app's attach button does. */
const ATTACH = /^\/attach(?:\s+(.*))?$/;
const ATTACH_HELP = "`/attach PATH` attaches a local file (an image, a log, code) to your next question";

/**
 * The terminal: each line is a question, steps print as they happen, then the answer. Lines
 * starting with "/" are commands (/tools, /tools enable NAME, /memory clear, /help, ...). The
 * person at the terminal is its operator: an admin, never rate limited. `/attach PATH` attaches a
 * local file to the next question, read within the same limits as a chat platform's files (the
 * operator may read their own files anyway). `finished` resolves at the end of input, once the last
 * question has been answered.
 */
export class TerminalAdapter implements PlatformAdapter {
  readonly name = PLATFORM;
  readonly interactive = true;
  readonly finished: Promise<void>;
  private finish!: () => void;
  private link?: PlatformLink;

  constructor(private readonly services: PlatformServices<object>) {
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  async start(): Promise<void> {
    const { output } = this.services.streams;
    const write = (text: string) => output.write(`${text}\n`);
    this.link = this.services.connect({
      surface: terminalSurface(write),
      allowDms: false,
      hasRoles: false,
      commandName: (group) => `/${group}`,
      roleNames: { admin: "", moderator: "" },
      content: localFiles,
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
    const attached: AttachmentDescriptor[] = [];
    for await (const raw of lines) {
      const text = raw.trim();
      const attach = ATTACH.exec(text);
      if (attach) {
        write(await attachFile(attach[1]?.trim(), attached));
      } else if (text.startsWith("/")) {
        const command = link.parseCommand(text);
        const help = command?.kind === "help" ? `\n${ATTACH_HELP}` : "";
        write(command ? `${link.runCommand(command, { ...PLACE, actor }).text}${help}` : `Unknown command "${text}". Try /help.`);
      } else if (text !== "") {
        await link.receive({
          ...PLACE,
          messageId: randomUUID(),
          actor,
          text,
          mentionsBot: true,
          attachments: attached.splice(0),
          isEdit: false,
          isSystem: false,
          isOwn: false,
        });
      }
      prompt();
    }
  }
}

export const create = (services: PlatformServices<object>) => new TerminalAdapter(services);

/** Adds a file for the next question; says what became of it. */
async function attachFile(path: string | undefined, attached: AttachmentDescriptor[]): Promise<string> {
  if (!path) return `Usage: ${ATTACH_HELP}.`;
  try {
    const file = await describeLocalFile(path);
    attached.push(file);
    return `Attached ${file.name}; it goes with your next question.`;
  } catch (error) {
    return `Cannot attach: ${(error as Error).message}.`;
  }
}

function operator(): Actor {
  let name = "you";
  try {
    name = userInfo().username;
  } catch {
    // no user database entry (some containers): keep "you"
  }
  return { id: name, name, role: "admin", isBot: false, operator: true };
}
