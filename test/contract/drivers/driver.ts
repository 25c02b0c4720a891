import type { App, AppOptions } from "../../../src/app.js";
import type { FakeOpenAI } from "../../fakes/fake-openai.js";

/**
 * One platform as the contract suite drives it: what a user does there, and what they see. Each
 * driver runs the real adapter (discord.js, Bolt, the terminal's readline) against the fakes, so
 * a scenario written once runs unchanged on every platform.
 */
export interface PlatformDriver {
  /** The fake model behind the bot. */
  readonly model: FakeOpenAI;
  /** The longest message the platform takes; Infinity where there is no limit (the terminal). */
  readonly messageLimit: number;
  /** How the platform's refusals name the permission an admin has (undefined where everyone is the operator). */
  readonly adminPermission?: RegExp;
  /** Markdown the bot wrote as this platform shows it: chat apps as written, the terminal rendered (piped: plain text). */
  shows(markdown: string): string;

  /** A user asks, mentioning the bot, at the top of a channel (on the terminal: types a line). */
  ask(text: string): Promise<Sent>;
  /** A user asks with files attached, served from the platform's own file host (on the terminal: `/attach` each, then ask). */
  askWithFiles(text: string, files: SharedFile[]): Promise<Sent>;
  /** The same user follows up in the thread the bot answered `first` in, without a mention. */
  followUp(first: Sent, text: string): Promise<Sent>;
  /** The platform delivers the same message again (a retry, a replay after a reconnect). */
  deliverAgain(sent: Sent): Promise<void>;
  /** The user edits the message, and the platform says so. */
  edit(sent: Sent, text: string): Promise<void>;
  /** Another bot posts a question that mentions this bot. */
  askAsOtherBot(text: string): Promise<void>;
  /** The platform posts a system message (a pin notice) in the bot's thread on `first`. */
  systemMessage(first: Sent): Promise<void>;
  /** Runs a settings command ("tools disable calculator"); resolves with the reply only its user sees. */
  command(text: string, as: "member" | "admin"): Promise<string>;
  /** Waits for the next request for approval the bot shows (after those already seen). */
  approval(): Promise<ShownApproval>;
  /** Stops the bot as a process restart does and starts it again on the same database. */
  restart(): Promise<void>;
  /** The running app, for what users cannot see (the audit, the turns table). */
  app(): App;

  /** Waits until `sent` has its answer and nothing more is under way, then says what its user sees. */
  seen(sent: Sent): Promise<Seen>;
  /** When the user first saw any text of the answer to `sent` (`performance.now()`), if they did. */
  firstAnswerAt(sent: Sent): number | undefined;
  /** Every message the bot has shown so far, oldest first, as it reads now. */
  shown(): string[];
  close(): Promise<void>;
}

/** A file a user shares, with the type their app declares for it. */
interface SharedFile {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** A message a user sent, as its driver needs it to find the bot's answer. */
export interface Sent {
  readonly text: string;
}

/** What a user sees of one question, each message as it reads now. */
export interface Seen {
  /** The tool steps (on the terminal, each state of a step is printed again). */
  steps: string[];
  /** The answer, in as many messages as the platform needed. */
  answer: string[];
}

/** Who presses a request's controls: the person who asked, an admin, or someone else (a plain member). */
export type Presser = "asker" | "admin" | "stranger";

/** A request for approval as people see it. */
export interface ShownApproval {
  /** The message as it reads now: the request, or once it ended, its outcome. */
  text(): string;
  /** Whether its Approve and Deny controls are still there. */
  hasControls(): boolean;
  /**
   * Presses Approve or Deny (types yes or no) as `who`, with the controls as they were when the
   * request was shown (a stale client after a restart). Resolves with what the presser alone was told, or "".
   */
  press(decision: "approve" | "deny", who: Presser): Promise<string>;
}

/** What a platform has at all; a scenario that needs what a platform lacks is skipped there. */
interface Capabilities {
  /** Delivers a message more than once. */
  redelivery: boolean;
  /** Lets users edit messages. */
  edits: boolean;
  /** Has other senders: other bots, system messages. */
  otherSenders: boolean;
  /** Has members who are not admins. */
  members: boolean;
  /** The bot can be restarted while people still see its messages. */
  restarts: boolean;
}

export interface DriverFactory {
  name: string;
  can: Capabilities;
  start(env?: Record<string, string>, options?: AppOptions): Promise<PlatformDriver>;
}

/** How long a driver waits for the bot to show something before the test fails. */
export const SEEN_TIMEOUT_MS = 20_000;

/** Polls `check` until it returns something, or fails after SEEN_TIMEOUT_MS naming `what`. */
export async function eventually<T>(check: () => T | undefined | false, what: string): Promise<T> {
  const deadline = Date.now() + SEEN_TIMEOUT_MS;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
