import { randomUUID } from "node:crypto";
import type { Store } from "../../../src/store/store.js";
import type { ConversationRef } from "../../../src/store/types.js";

const USAGE = { promptTokens: 900, completionTokens: 60, totalTokens: 960 };

/** The store writes of one answered turn with `steps` tool steps, as the runner makes them. */
export async function writeTurn(store: Store, ref: ConversationRef, steps: number): Promise<void> {
  const turnId = randomUUID();
  const conversation = await store.turns.start({ id: turnId, conversation: ref, userId: "u1", instance: "bench" });
  await store.turns.finish({
    turnId,
    end: { status: "answered", outcome: "answer", iterations: steps, usage: USAGE },
    steps: Array.from({ length: steps }, (_, i) => ({
      seq: i + 1,
      tool: "circumference",
      input: { radius: 7.81 },
      startedAt: Date.now(),
      output: "49.0716772491",
      durationMs: 0,
    })),
    // A turn with n tool rounds asks the model n + 1 times.
    modelCalls: Array.from({ length: steps + 1 }, (_, i) => ({
      afterStep: i,
      ...{ model: "gpt-4o-mini", provider: "openai", purpose: "turn", retry: false, outcome: "ok", startedAt: Date.now(), durationMs: 400.5 },
      ...{ firstTokenMs: 120.2, usage: USAGE },
    })),
    workspace: ref,
    exchange: { conversationId: conversation.id, question: { author: "alice", text: "What is 2πr for r = 7.81?" }, answer: "About 49.07." },
  });
}
