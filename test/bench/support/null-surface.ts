import { type Logger, silentLogger } from "../../../src/log.js";
import { ChannelBudget } from "../../../src/presenter/channel-budget.js";
import { TurnPresenter } from "../../../src/presenter/turn-presenter.js";
import type { ChatSurface } from "../../../src/contract/surface.js";

/** A platform that takes every write at once: the presenter's own cost is what is left. */
const nullSurface: ChatSurface = {
  platform: "bench",
  messageLimit: 1_000_000,
  answerInThread: false,
  holdsQuickSteps: true,
  render: (markdown) => markdown,
  post: async () => ({ id: "m" }),
  edit: async () => {},
  startWorking: () => async () => {},
};

const budget = new ChannelBudget(5, 5_000);

/** A streaming presenter for one question on the null platform, as a platform's turn gets one (edits paced at 1 s). */
export function streamingView(channelId: string, askerId: string, text: string, logger: Logger = silentLogger()): TurnPresenter {
  return new TurnPresenter({
    surface: nullSurface,
    question: { location: { channelId }, messageId: "q", isDm: false, askerId, text },
    stepStartDelayMs: 400,
    maxAnswerMessages: 5,
    logger,
    onThreadOpened: () => {},
    streaming: { intervalMs: 1_000, budget },
  });
}
