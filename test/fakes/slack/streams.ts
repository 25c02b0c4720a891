import type { FakeSlackOptions } from "./fake-slack.js";
import type { FakeMessage } from "./messages.js";

/** What of the fake Slack the stream methods use. */
export interface StreamingSlack {
  messages: FakeMessage[];
  options: FakeSlackOptions;
  botUserId: string;
  nextTs(): string;
}

/** chat.startStream / appendStream / stopStream, with Slack's rules: threads only, recipients in channels, expiry. */
export function streamCall(method: string, params: Record<string, any>, slack: StreamingSlack): Record<string, any> {
  const mode = slack.options.streaming ?? "on";
  if (mode === "unknown") return { ok: false, error: "unknown_method" };
  if (mode === "refused") return { ok: false, error: "channel_type_not_supported" };
  const chunks = (typeof params.chunks === "string" ? JSON.parse(params.chunks) : (params.chunks ?? [])) as any[];
  if (typeof params.markdown_text === "string") chunks.unshift({ type: "markdown_text", text: params.markdown_text });
  const now = performance.now();
  let message: FakeMessage | undefined;
  if (method === "chat.startStream") {
    if (!params.channel || !params.thread_ts) return { ok: false, error: "invalid_arguments" };
    const channel = String(params.channel);
    if (!channel.startsWith("D") && (!params.recipient_user_id || !params.recipient_team_id)) return { ok: false, error: "missing_recipient" };
    message = {
      channel,
      ts: slack.nextTs(),
      threadTs: String(params.thread_ts),
      text: "",
      versions: [],
      broadcast: false,
      user: slack.botUserId,
      blocks: [],
      postedBlocks: [],
      streamed: { open: true, lastWriteAt: now, recipientUser: params.recipient_user_id, recipientTeam: params.recipient_team_id, tasks: new Map() },
    };
    slack.messages.push(message);
  } else {
    message = slack.messages.find((m) => m.channel === params.channel && m.ts === params.ts);
    if (!message) return { ok: false, error: "message_not_found" };
    const idle = slack.options.streamIdleMs;
    if (message.streamed && idle !== undefined && now - message.streamed.lastWriteAt > idle) message.streamed.open = false;
    if (!message.streamed?.open) return { ok: false, error: "message_not_in_streaming_state" };
  }
  for (const chunk of chunks) {
    if (chunk.type === "markdown_text") {
      message.text += String(chunk.text ?? "");
      message.versions.push(message.text);
    } else if (chunk.type === "task_update") {
      const states = message.streamed!.tasks.get(chunk.id) ?? [];
      states.push({ title: chunk.title, status: chunk.status, output: chunk.output });
      message.streamed!.tasks.set(chunk.id, states);
    }
  }
  message.streamed!.lastWriteAt = now;
  if (method === "chat.stopStream") {
    message.streamed!.open = false;
    // Blocks given with the end go under the streamed text (an answer's feedback buttons).
    const blocks = typeof params.blocks === "string" ? JSON.parse(params.blocks) : params.blocks;
    if (Array.isArray(blocks)) {
      message.blocks = [...message.blocks, ...blocks];
      message.postedBlocks = [...message.postedBlocks, ...blocks];
    }
  }
  return { ok: true, channel: message.channel, ts: message.ts };
}
