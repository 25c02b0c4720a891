import type { ChatSurface } from "../../../src/contract/surface.js";

/** A platform that takes every write at once: the presenter's own cost is what is left. */
export const nullSurface: ChatSurface = {
  platform: "bench",
  messageLimit: 1_000_000,
  answerInThread: false,
  holdsQuickSteps: true,
  render: (markdown) => markdown,
  post: async () => ({ id: "m" }),
  edit: async () => {},
  startWorking: () => async () => {},
};
