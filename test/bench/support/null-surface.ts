import type { Logger } from "../../../src/log.js";
import type { ChannelBudget } from "../../../src/presenter/channel-budget.js";
import type { TurnPresenter } from "../../../src/presenter/turn-presenter.js";
import type { ChatSurface } from "../../../src/contract/surface.js";
import { loadedBot } from "./built-bot.js";

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

/** Made once, as a platform has one: a pino instance costs tens of microseconds (and a stack trace) to make. */
let shared: { budget: ChannelBudget; quiet: Logger } | undefined;

/**
 * A streaming presenter for one question on the null platform, as a platform's turn gets one (edits
 * paced at 1 s). The presenter is the bundled bot's (built-bot.ts), as production runs it.
 */
export function streamingView(channelId: string, askerId: string, text: string, logger?: Logger): TurnPresenter {
  const bot = loadedBot();
  shared ??= { budget: new bot.ChannelBudget(5, 5_000), quiet: bot.silentLogger() };
  return new bot.TurnPresenter({
    surface: nullSurface,
    question: { location: { channelId }, messageId: "q", isDm: false, askerId, text },
    stepStartDelayMs: 400,
    maxAnswerMessages: 5,
    logger: logger ?? shared.quiet,
    onThreadOpened: () => {},
    streaming: { intervalMs: 1_000, budget: shared.budget },
  });
}
