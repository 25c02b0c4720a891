import { createInterface } from "node:readline";
import type { Tool } from "../../../src/tools/define-tool.js";
import { FloorAgent } from "./floor-agent.js";
import { ANSWER, QUESTION } from "./turn-script.js";

/** What the parent sends first: the model, the bot's tools and settings (so the bodies match), and where the floor posts. */
export interface StreamingFloorSetup {
  modelUrl: string;
  tools: Pick<Tool, "name" | "description" | "jsonSchema">[];
  config: { OPENAI_MODEL: string; OPENAI_TIMEOUT_MS: number; MEMORY_WINDOW: number };
  platform: "terminal" | "discord" | "slack";
  /** Whole (unstreamed) model calls instead: the floor of the terminal bot with STREAM_ANSWERS=false. */
  whole?: boolean;
  discord?: { apiUrl: string; token: string; channelId: string };
  slack?: { apiUrl: string; botToken: string; channel: string };
}

/**
 * The floor of part 16, in a process of its own as the started bot is: the bare `openai` streaming
 * loop with the SDK as it comes, plus what a minimal streaming bot must do to show the answer on its
 * platform — print it (terminal), or post it when its text comes and edit it once at the end
 * (Discord: POST and PATCH a message; Slack: chat.postMessage and chat.update), over the global fetch.
 * stdin: a StreamingFloorSetup line, then one line per turn (its conversation); stdout: "ok" or
 * "error: …" per turn. Exits when stdin closes.
 */
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const setup = JSON.parse((await lines.next()).value as string) as StreamingFloorSetup;
const loop = new FloorAgent(setup.modelUrl, setup.tools as Tool[], setup.config, "sdk-default", !setup.whole);
const show = platformCalls(setup);
process.stdout.write("ready\n");
for (let line = await lines.next(); !line.done; line = await lines.next()) {
  const outcome = await loop
    .turn(line.value, QUESTION)
    .then(show)
    .then(
      () => "ok",
      (error: Error) => `error: ${error.message}`,
    );
  process.stdout.write(`${outcome}\n`);
}
process.exit(0);

function platformCalls(setup: StreamingFloorSetup): () => Promise<void> {
  if (setup.platform === "terminal") return async () => void process.stdout.write(`bot: ${ANSWER}\n`);
  if (setup.platform === "discord") {
    const { apiUrl, token, channelId } = setup.discord!;
    const headers = { authorization: `Bot ${token}`, "content-type": "application/json" };
    const messages = `${apiUrl}/v10/channels/${channelId}/messages`;
    return async () => {
      const posted = (await call(messages, "POST", headers, { content: ANSWER })) as { id: string };
      await call(`${messages}/${posted.id}`, "PATCH", headers, { content: ANSWER });
    };
  }
  const { apiUrl, botToken, channel } = setup.slack!;
  const headers = { authorization: `Bearer ${botToken}`, "content-type": "application/json; charset=utf-8" };
  return async () => {
    const posted = (await call(`${apiUrl}chat.postMessage`, "POST", headers, { channel, text: ANSWER })) as { ts: string };
    await call(`${apiUrl}chat.update`, "POST", headers, { channel, ts: posted.ts, text: ANSWER });
  };
}

async function call(url: string, method: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method, headers, body: JSON.stringify(body) });
  const answer = (await response.json()) as { ok?: boolean; error?: string };
  if (!response.ok || answer.ok === false) throw new Error(`${method} ${url} answered ${response.status} ${answer.error ?? ""}`);
  return answer;
}
