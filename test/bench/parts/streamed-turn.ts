import type { App } from "../../../src/app.js";
import { startBenchApp } from "../support/bench-app.js";
import { compareArms } from "../support/compare.js";
import { FloorAgent } from "../support/floor-agent.js";
import { runLoad } from "../support/load.js";
import { startModelProcess } from "../support/model-process.js";
import { streamingView } from "../support/null-surface.js";
import { assertSameRequestBodies } from "../support/same-bodies.js";
import { round } from "../support/stats.js";
import { ANSWER, QUESTION } from "../support/turn-script.js";
import type { BenchPart } from "../types.js";

const SIZES = {
  full: { warmupTurns: 300, shape: { blocks: 30, turns: 25, width: 1 } },
  quick: { warmupTurns: 6, shape: { blocks: 2, turns: 3, width: 1 } },
};
const GOAL_RATIO = 1.05;

type TurnFn = (conversation: string) => Promise<void>;

/**
 * Part 13 (issue 30): the default path, streamed. The same turn as part 1 (a question, two tool
 * calls, an answer) with STREAM_ANSWERS on, through the runner and the presenter (on a platform
 * that takes every write at once), every model call streamed (tool calls in argument deltas), against a
 * bare `openai` loop that streams both calls the same way (the SDK as it comes; tool calls
 * assembled from their deltas) and the same loop on the bot's client. Same request bodies, checked.
 */
export const streamedTurnPart: BenchPart = {
  id: "streamed",
  title: "13. A streamed turn (both calls streamed) against a bare openai streaming loop",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const url = model.baseUrl().replace(/\/v1$/, "/streamed/v1");
    const bench = await startBenchApp(url, { STREAM_ANSWERS: "true" });
    try {
      const tools = await bench.app.access.enabledTools({ platform: "bench", workspaceId: "w1" });
      const loop = new FloorAgent(url, tools, bench.app.config, "sdk-default", true);
      const floor = new FloorAgent(url, tools, bench.app.config, "bot", true);
      const loopTurn: TurnFn = (conversation) => loop.turn(conversation, QUESTION);
      const floorTurn: TurnFn = (conversation) => floor.turn(conversation, QUESTION);
      const subject: TurnFn = (conversation) => streamedTurn(bench.app, conversation);
      const bodies = await assertSameRequestBodies(model, { name: "the bot", turn: subject }, [
        { name: "the bare streaming loop", turn: loopTurn },
        { name: "the streaming loop on the bot's client", turn: floorTurn },
      ]);
      options.note(`streamed: the bot and both streaming loops sent the same ${bodies.bodies} request bodies`);
      for (const turn of [floorTurn, subject, loopTurn]) await runLoad(turn, { turns: size.warmupTurns, width: 1 });
      const comparison = await compareArms(floorTurn, subject, size.shape, loopTurn);
      const us = (arm: { cpuMsPerTurn: number }) => arm.cpuMsPerTurn * 1000;
      const ratio = round(us(comparison.subject) / us(comparison.reference!));
      return {
        figures: [
          {
            key: "cpu_ratio_streamed_to_default_openai_streaming_loop",
            label: "bot CPU per streamed turn / bare streaming loop with the SDK's defaults",
            value: ratio,
            goal: `≤ ${GOAL_RATIO}`,
            met: ratio <= GOAL_RATIO,
          },
          {
            key: "cpu_us_per_streamed_turn_bot",
            label: "bot CPU per streamed turn (runner, presenter, SQLite)",
            value: round(us(comparison.subject)),
            unit: "µs",
          },
          {
            key: "cpu_us_per_streamed_turn_default_openai_loop",
            label: "bare streaming loop CPU per turn (openai SDK as it comes)",
            value: round(us(comparison.reference!)),
            unit: "µs",
          },
          { key: "cpu_us_per_streamed_turn_floor", label: "streaming loop on the bot's client, CPU per turn", value: round(us(comparison.floor)), unit: "µs" },
        ],
        detail: { sizes: size, requestBodiesCompared: bodies, comparison },
      };
    } finally {
      await bench.close();
      await model.close();
    }
  },
};

/** One streamed turn through the runner and a presenter, as a platform's turn runs; throws unless it ended with the scripted answer. */
async function streamedTurn(app: App, conversation: string): Promise<void> {
  const view = streamingView(conversation, "u1", QUESTION);
  const reply = await app.runner.submit(
    { platform: "bench", workspaceId: "w1", channelId: conversation, userId: "u1", userName: "alice", text: QUESTION },
    view,
  );
  if (reply.status !== "answered" || reply.text !== ANSWER)
    throw new Error(`a streamed benchmark turn went wrong: ${reply.status}/${reply.outcome} "${reply.text}"`);
}
