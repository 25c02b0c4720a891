import type { AgentRun, ChatMessage } from "./types.js";

/**
 * The question as one user message: plain text, or, with images, a text part followed by one
 * image part each (as data URLs: the model provider gets the bytes, never a platform's address).
 */
export function userMessage(run: Pick<AgentRun, "input" | "images">): ChatMessage {
  if (!run.images?.length) return { role: "user", content: run.input };
  return {
    role: "user",
    content: [
      { type: "text", text: run.input },
      ...run.images.map((image) => ({ type: "image_url" as const, image_url: { url: `data:${image.mediaType};base64,${image.data.toString("base64")}` } })),
    ],
  };
}
