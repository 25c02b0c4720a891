import type OpenAI from "openai";
import { systemPrompt } from "../../../src/agent/prompts.js";
import { startBenchApp } from "../support/bench-app.js";
import { loadedBot } from "../support/built-bot.js";
import { STREAM_WORD } from "../support/bench-model.js";
import { discordFirstText, slackFirstText, type FirstTextDriver } from "../support/first-text.js";
import { startModelProcess } from "../support/model-process.js";
import { streamingView } from "../support/null-surface.js";
import { median, quantile, round } from "../support/stats.js";
import type { BenchPart, Figure } from "../types.js";

const SIZES = {
  full: { chunks: 2_000, rounds: 5, turnsPerRound: 20, warmup: 10, firstText: 40 },
  quick: { chunks: 200, rounds: 1, turnsPerRound: 2, warmup: 1, firstText: 3 },
};
const GOAL_CPU_MARGIN_US = 10;
const GOAL_FIRST_TEXT_MS = 5;

/**
 * Part 7: streaming. CPU of this process per streamed chunk, the bot's whole path (the runner,
 * the agent reading the stream, the presenter gathering the text; one SQLite turn amortised over
 * the chunks) against a bare `openai` streaming loop over the same answers, in alternating
 * blocks; the model streams from its own process. Then the time from the model's first text to
 * the platform receiving the call that shows it, through discord.js and Bolt.
 */
export const streamingPart: BenchPart = {
  id: "stream",
  title: "7. Streaming: CPU per streamed chunk against a bare openai loop; model's first text to first visible text",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const url = model.baseUrl().replace(/\/v1$/, `/stream/${size.chunks}/v1`);
    const bench = await startBenchApp(url, { STREAM_ANSWERS: "true" });
    const client = loadedBot().createOpenAIClient({ baseURL: url, timeoutMs: 60_000 });
    const expected = STREAM_WORD.repeat(size.chunks).trim();
    let turn = 0;
    const botTurn = async () => {
      const view = streamingView("c", "u", "q");
      const reply = await bench.app.runner.submit({ platform: "bench", workspaceId: "w", channelId: `c${turn++ % 20}`, userId: "u", text: "stream" }, view);
      if (reply.text !== expected) throw new Error(`a streamed benchmark turn went wrong: ${reply.status}/${reply.outcome}`);
    };
    const floorTurn = async () => {
      const stream = await client.chat.completions.create({
        model: bench.app.config.OPENAI_MODEL,
        messages: [
          { role: "system", content: systemPrompt() },
          { role: "user", content: "stream" },
        ],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = "";
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? "";
        usage ??= chunk.usage ?? undefined;
      }
      if (text.trim() !== expected || !usage) throw new Error("the floor's stream went wrong");
    };
    try {
      options.note(`stream: warming up (${size.warmup} turns each)`);
      for (let i = 0; i < size.warmup; i++) {
        await floorTurn();
        await botTurn();
      }
      const cpu = { bot: [] as number[], floor: [] as number[] };
      for (let round = 0; round < size.rounds; round++) {
        cpu.floor.push(await cpuPerChunk(floorTurn, size.turnsPerRound, size.chunks));
        cpu.bot.push(await cpuPerChunk(botTurn, size.turnsPerRound, size.chunks));
      }
      const bot = median(cpu.bot);
      const floor = median(cpu.floor);
      const figures: Figure[] = [
        {
          key: "stream_chunk_cpu_us",
          label: `CPU per streamed chunk, the bot (${size.chunks} chunks a turn)`,
          value: round(bot),
          unit: "µs",
          goal: `≤ floor + ${GOAL_CPU_MARGIN_US}`,
          met: bot <= floor + GOAL_CPU_MARGIN_US,
        },
        { key: "stream_chunk_cpu_us_floor", label: "CPU per streamed chunk, the bare openai loop", value: round(floor), unit: "µs" },
      ];
      const detail: Record<string, unknown> = { sizes: size, cpu_us_per_round: cpu };
      for (const [name, start] of [
        ["discord", discordFirstText],
        ["slack", slackFirstText],
      ] as const) {
        options.note(`stream: first text on ${name} (${size.firstText} questions)`);
        const driver = await start();
        try {
          const { samples, calls } = await firstText(driver, size.firstText);
          const p50 = median(samples);
          const call = median(calls);
          figures.push({
            key: `first_text_ms_${name}`,
            label: `${name}: model's first text to the call that shows it, p50 (p99 ${round(quantile(samples, 0.99))} ms)`,
            value: round(p50),
            unit: "ms",
            goal: `< ${GOAL_FIRST_TEXT_MS} + one call (${round(call)} ms)`,
            met: p50 < GOAL_FIRST_TEXT_MS + call,
          });
          detail[`first_text_${name}`] = { p50_ms: round(p50), p99_ms: round(quantile(samples, 0.99)), platform_call_p50_ms: round(call) };
        } finally {
          await driver.close();
        }
      }
      return { figures, detail };
    } finally {
      await bench.close();
      await model.close();
    }
  },
};

/** Microseconds of this process's CPU (user + system) per chunk over `turns` turns of `chunks` chunks. */
async function cpuPerChunk(turn: () => Promise<void>, turns: number, chunks: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < turns; i++) await turn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (turns * chunks);
}

async function firstText(driver: FirstTextDriver, count: number): Promise<{ samples: number[]; calls: number[] }> {
  await driver.sample();
  await driver.platformCall();
  const samples: number[] = [];
  const calls: number[] = [];
  for (let i = 0; i < count; i++) {
    samples.push(await driver.sample());
    calls.push(await driver.platformCall());
  }
  return { samples, calls };
}
