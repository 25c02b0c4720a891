import type { ModelMessage } from "./model.js";
import type { AgentRun } from "./types.js";

/**
 * The question as one user message: plain text, or, with images, a text part followed by one
 * image part each (their bytes, base64: the model provider gets the bytes, never a platform's address).
 */
export function userMessage(run: Pick<AgentRun, "input" | "images">): ModelMessage {
  if (!run.images?.length) return { role: "user", content: run.input };
  return {
    role: "user",
    content: [
      { type: "text", text: run.input },
      ...run.images.map((image) => ({ type: "image" as const, mediaType: image.mediaType, base64: image.data.toString("base64") })),
    ],
  };
}
