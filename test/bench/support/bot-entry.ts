// What the benchmark takes from the bot (the floor uses its model client too), bundled by the project's own build (built-bot.ts), so
// the turns it measures run the JavaScript production runs.
export { createOpenAIClient } from "../../../src/agent/providers/openai/client.js";
export { createApp } from "../../../src/app.js";
export { loadConfig } from "../../../src/config/env.js";
export { createLogger } from "../../../src/log.js";
export { TurnPresenter } from "../../../src/presenter/turn-presenter.js";
export { ChannelBudget } from "../../../src/presenter/channel-budget.js";
export { silentLogger } from "../../../src/log.js";
