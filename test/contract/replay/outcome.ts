import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Responder } from "../../fakes/fake-openai.js";
import type { CapturedLogs } from "../../support/log-capture.js";

/** What one replayed payload did, as users and the operator would notice it. */
export interface Outcome {
  /** Requests to the model: one per turn (the fake model answers at once, with no tools). */
  modelCalls: number;
  /** Messages the bot posted for everyone, as "where: text". */
  posts: string[];
  /** Replies only the sender sees (Discord's ephemeral interaction replies, Slack's response_url). */
  privateReplies: string[];
  /** Log lines at level error or above. */
  errors: string[];
  /** The receiver's answer to the request, when it had a body (Slack's url_verification). */
  response?: string;
}

export interface ReplayFile {
  /** The file's name without ".json", as the MANIFEST lists it. */
  name: string;
  payload: any;
}

const FIXTURES = fileURLToPath(new URL("../../fixtures/replay-payloads/", import.meta.url));

/** A platform's payloads in the MANIFEST's order (their names sort that way). */
export function replayFiles(platform: "discord" | "slack"): ReplayFile[] {
  const folder = `${FIXTURES}${platform}/`;
  return readdirSync(folder)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({ name: file.replace(/\.json$/, ""), payload: JSON.parse(readFileSync(`${folder}${file}`, "utf8")) }));
}

/** The fake model answers "re: <the question>", so each answer says which message it answers. */
export const echo: Responder = (request) => {
  const questions = request.body.messages.filter((m: { role: string }) => m.role === "user");
  return { kind: "message", content: `re: ${questions.at(-1)?.content}` };
};

/** Error-level lines logged since `from` (pino: 50 is error, 60 fatal). */
export const errorsSince = (logs: CapturedLogs, from: number): string[] =>
  logs.lines
    .slice(from)
    .filter((line) => line.level >= 50)
    .map((line) => `${line.msg}${line.err ? `: ${line.err.message}` : ""}`);
