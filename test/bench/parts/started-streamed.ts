import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBenchApp } from "../support/bench-app.js";
import { benchBotSettings } from "../support/bench-settings.js";
import { startBotOnFakes } from "../support/bot-on-fakes.js";
import { spawnTs, stopChild } from "../support/child-process.js";
import { LineReader } from "../support/line-process.js";
import { startModelProcess } from "../support/model-process.js";
import { startPlatformFakes, type PlatformFakes } from "../support/platform-fakes.js";
import { processCpuMs } from "../support/process-cpu.js";
import { startProductionBot } from "../support/production-bot.js";
import { median, round } from "../support/stats.js";
import type { StreamingFloorSetup } from "../support/streaming-floor-process.js";
import { ANSWER, QUESTION } from "../support/turn-script.js";
import type { BenchPart, Figure } from "../types.js";

/**
 * Turns 50 to 850 on the terminal; on Discord and Slack 50 to 450, as each of their turns takes
 * several REST calls (discord.js queues them), which makes a round of 800 take minutes.
 */
const SIZES = {
  full: { warmupTurns: 50, measuredTurns: 800, platformMeasuredTurns: 400, rounds: 3 },
  quick: { warmupTurns: 2, measuredTurns: 20, platformMeasuredTurns: 20, rounds: 1 },
};
type Size = (typeof SIZES)["full"];
const GOAL_RATIO = 1.05;
/** STREAM_ANSWERS=false against a bare loop of whole calls: the bot may cost no more than the loop (issue 30). */
const GOAL_RATIO_WHOLE = 1.0;
const PLATFORMS = ["terminal", "discord", "slack"] as const;
type Platform = (typeof PLATFORMS)[number];
/**
 * What each round measures: the streamed turn per platform, and the terminal's whole turn, also
 * with MEMORY_SUMMARY=off against the same loop (the one feature of the bot's turn that makes a
 * model call the loop does not: a summary call every MEMORY_SUMMARY_BATCH turns).
 */
const ARMS = [...PLATFORMS, "terminal_whole", "terminal_whole_no_summary"] as const;
type Arm = (typeof ARMS)[number];

/** A process whose turns the part drives one after another, and whose CPU it reads from /proc. */
interface Driven {
  pid: number;
  turn(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Part 16 (issue 30): a streamed turn through the started bot, per platform. The bot as production
 * starts it (package.json's start script, STREAM_ANSWERS on, every model call streamed, the answer
 * shown as it comes): the terminal piped, and Discord and Slack through discord.js and Bolt against
 * the fakes in their own process. Its floor, in a process of its own too: the bare `openai`
 * streaming loop (the SDK as it comes) plus the platform calls a minimal streaming bot must make
 * (terminal: print the answer; Discord and Slack: post it, then edit it once). The figure is the
 * marginal CPU of each process (/proc) between its turn `warmupTurns` and the last, per round, each
 * round with fresh processes, bot and floor taking turns to go first. The terminal is measured a
 * second way too, STREAM_ANSWERS=false against the same loop making whole calls (the plain mode's
 * ratio, whose goal is ≤ 1.0), and a third: the same with MEMORY_SUMMARY=off, reported beside it.
 */
export const startedStreamedPart: BenchPart = {
  id: "started-streamed",
  title:
    "16. A streamed turn through the started bot, per platform, against a bare streaming loop plus the platform's calls; and the terminal's whole turn against a loop of whole calls",
  async run(options) {
    const size = options.quick ? SIZES.quick : SIZES.full;
    const model = await startModelProcess();
    const urls = { streamed: model.baseUrl().replace(/\/v1$/, "/streamed/v1"), whole: model.baseUrl() };
    const fakes = await startPlatformFakes(1);
    try {
      const setup = await floorSetup(urls.streamed);
      const samples = {} as Record<Arm, { bot: number[]; floor: number[] }>;
      for (const arm of ARMS) samples[arm] = { bot: [], floor: [] };
      /** Round 1's terminal bot and floor, both fresh: their first turns must send the model the same bytes. */
      const firstBodies: { bot: string[]; floor: string[] } = { bot: [], floor: [] };
      for (let round = 0; round < size.rounds; round++) {
        const measure = async (who: "bot" | "floor") => {
          options.note(`started-streamed: round ${round + 1} of ${size.rounds}, the ${who}`);
          const first = round === 0 ? async (turn: () => Promise<void>) => void (firstBodies[who] = await model.recordBodies(turn)) : undefined;
          const perTurn = who === "bot" ? await botRound(urls, fakes, size, first) : await floorRound(setup, urls.whole, fakes, size, first);
          for (const arm of ARMS) samples[arm][who].push(perTurn[arm]);
        };
        const order = round % 2 === 0 ? (["floor", "bot"] as const) : (["bot", "floor"] as const);
        for (const who of order) await measure(who);
        if (round === 0) sameBodies(firstBodies.bot, firstBodies.floor);
      }
      const bodies = firstBodies.bot.length;
      options.note(`started-streamed: the terminal bot and the floor sent the same ${bodies} request bodies in their first turns`);
      const figures: Figure[] = [
        ...PLATFORMS.flatMap((platform) => platformFigures(platform, samples[platform], size.rounds)),
        ...wholeTerminalFigures(samples.terminal_whole, size.rounds),
        ...withoutSummaryFigures(samples.terminal_whole_no_summary, size.rounds),
      ];
      return { figures, detail: { sizes: size, cpuUsPerTurn: samples, requestBodiesCompared: bodies } };
    } finally {
      await fakes.close();
      await model.close();
    }
  },
};

/** What one arm's three figures are called: the ratio's key and goal, the two CPU keys, and what each side did. */
interface ArmNames {
  ratioKey: string;
  botKey: string;
  /** Without one, the floor is another arm's, reported there. */
  floorKey?: string;
  /** Without one, the ratio is reported, not judged. */
  goal?: number;
  /** The bot's side, e.g. "terminal: the started bot's CPU per streamed turn". */
  bot: string;
  /** The floor's side, e.g. "terminal: the floor's CPU per turn (bare streaming loop + printing the answer)". */
  floor: string;
}

function armFigures(names: ArmNames, sample: { bot: number[]; floor: number[] }, rounds: number): Figure[] {
  const ratios = sample.bot.map((bot, i) => bot / sample.floor[i]!);
  const ratio = round(median(ratios));
  const spread = `${round(Math.min(...ratios))}–${round(Math.max(...ratios))}`;
  const label = `${names.bot} / the floor's (median of ${rounds} rounds; ${spread})`;
  const goal = names.goal;
  return [
    goal === undefined ? { key: names.ratioKey, label, value: ratio } : { key: names.ratioKey, label, value: ratio, goal: `≤ ${goal}`, met: ratio <= goal },
    { key: names.botKey, label: names.bot, value: round(median(sample.bot)), unit: "µs" },
    ...(names.floorKey ? [{ key: names.floorKey, label: names.floor, value: round(median(sample.floor)), unit: "µs" }] : []),
  ];
}

function platformFigures(platform: Platform, sample: { bot: number[]; floor: number[] }, rounds: number): Figure[] {
  const calls = platform === "terminal" ? "printing the answer" : "one post, one edit";
  const names: ArmNames = {
    ratioKey: `cpu_ratio_started_streamed_${platform}`,
    botKey: `cpu_us_per_started_streamed_turn_${platform}`,
    floorKey: `cpu_us_per_started_streamed_turn_${platform}_floor`,
    goal: GOAL_RATIO,
    bot: `${platform}: the started bot's CPU per streamed turn`,
    floor: `${platform}: the floor's CPU per turn (bare streaming loop + ${calls})`,
  };
  return armFigures(names, sample, rounds);
}

function wholeTerminalFigures(sample: { bot: number[]; floor: number[] }, rounds: number): Figure[] {
  const names: ArmNames = {
    ratioKey: "cpu_ratio_started_whole_terminal",
    botKey: "cpu_us_per_started_whole_turn_terminal",
    floorKey: "cpu_us_per_started_whole_turn_terminal_floor",
    goal: GOAL_RATIO_WHOLE,
    bot: "terminal, STREAM_ANSWERS=false: the started bot's CPU per turn",
    floor: "terminal: the floor's CPU per turn (bare loop of whole calls + printing the answer)",
  };
  return armFigures(names, sample, rounds);
}

/** The whole turn without the memory summary, against the whole turn's floor of the same round: what the summary's calls cost. */
function withoutSummaryFigures(sample: { bot: number[]; floor: number[] }, rounds: number): Figure[] {
  const names: ArmNames = {
    ratioKey: "cpu_ratio_started_whole_terminal_without_summary",
    botKey: "cpu_us_per_started_whole_turn_terminal_without_summary",
    bot: "terminal, STREAM_ANSWERS=false, MEMORY_SUMMARY=off: the started bot's CPU per turn",
    floor: "the same floor as with the summary",
  };
  return armFigures(names, sample, rounds);
}

/** The bot's tools and settings, from a bench app in this process (built as the started bot builds them), so the floor's bodies are the bot's. */
async function floorSetup(modelUrl: string): Promise<Omit<StreamingFloorSetup, "platform">> {
  const bench = await startBenchApp(modelUrl, { STREAM_ANSWERS: "true" });
  try {
    const tools = await bench.app.access.enabledTools({ platform: "terminal", workspaceId: "local" });
    const { OPENAI_MODEL, OPENAI_TIMEOUT_MS, MEMORY_WINDOW } = bench.app.config;
    return {
      modelUrl,
      tools: tools.map(({ name, description, jsonSchema }) => ({ name, description, jsonSchema })),
      config: { OPENAI_MODEL, OPENAI_TIMEOUT_MS, MEMORY_WINDOW },
    };
  } finally {
    await bench.close();
  }
}

/** Marginal CPU per turn of `driven` (µs) over its turns after the warm-up; `first`, when given, runs its first turn. */
async function marginalCpuUs(driven: Driven, size: Size, arm: Arm, first?: FirstTurn): Promise<number> {
  const measured = arm === "terminal" || arm.startsWith("terminal_whole") ? size.measuredTurns : size.platformMeasuredTurns;
  for (let i = 0; i < size.warmupTurns; i++) await (i === 0 && first ? first(() => driven.turn()) : driven.turn());
  const before = processCpuMs(driven.pid);
  for (let i = 0; i < measured; i++) await driven.turn();
  return ((processCpuMs(driven.pid) - before) * 1000) / measured;
}

/** One round of the bot: the terminal bot, then one bot with Discord and Slack configured, fresh processes. */
type FirstTurn = (turn: () => Promise<void>) => Promise<void>;

async function botRound(urls: { streamed: string; whole: string }, fakes: PlatformFakes, size: Size, first?: FirstTurn): Promise<Record<Arm, number>> {
  const terminal = startedTerminal(urls.streamed, true);
  const terminalUs = await marginalCpuUs(terminal, size, "terminal", first).finally(() => terminal.stop());
  const whole = startedTerminal(urls.whole, false);
  const wholeUs = await marginalCpuUs(whole, size, "terminal_whole").finally(() => whole.stop());
  const noSummary = startedTerminal(urls.whole, false, { MEMORY_SUMMARY: "off" });
  const noSummaryUs = await marginalCpuUs(noSummary, size, "terminal_whole_no_summary").finally(() => noSummary.stop());
  const started = await startBotOnFakes(urls.streamed, fakes, { STREAM_ANSWERS: "true" });
  try {
    const pid = started.bot.rss().processes.at(-1)!.pid;
    const onFakes = (platform: "discord" | "slack"): Driven => ({
      pid,
      turn: async () => void (await fakes.load(platform, 1, 1)),
      stop: async () => {},
    });
    return {
      terminal: terminalUs,
      terminal_whole: wholeUs,
      terminal_whole_no_summary: noSummaryUs,
      discord: await marginalCpuUs(onFakes("discord"), size, "discord"),
      slack: await marginalCpuUs(onFakes("slack"), size, "slack"),
    };
  } finally {
    await started.close();
  }
}

async function floorRound(
  setup: Omit<StreamingFloorSetup, "platform">,
  wholeUrl: string,
  fakes: PlatformFakes,
  size: Size,
  first?: FirstTurn,
): Promise<Record<Arm, number>> {
  const perTurn = {} as Record<Arm, number>;
  for (const platform of PLATFORMS) {
    const floor = await startedFloor({ ...setup, platform, ...platformTarget(platform, fakes) });
    perTurn[platform] = await marginalCpuUs(floor, size, platform, platform === "terminal" ? first : undefined).finally(() => floor.stop());
  }
  const whole = await startedFloor({ ...setup, modelUrl: wholeUrl, platform: "terminal", whole: true });
  perTurn.terminal_whole = await marginalCpuUs(whole, size, "terminal_whole").finally(() => whole.stop());
  // One floor for both whole arms: the loop has no summary to turn off.
  perTurn.terminal_whole_no_summary = perTurn.terminal_whole;
  return perTurn;
}

function platformTarget(platform: Platform, fakes: PlatformFakes): Pick<StreamingFloorSetup, "discord" | "slack"> {
  const { discord, slack } = fakes.ready;
  if (platform === "discord") return { discord: { apiUrl: discord.apiUrl, token: discord.token, channelId: discord.channelId } };
  if (platform === "slack") return { slack: { apiUrl: slack.apiUrl, botToken: slack.botToken, channel: "CFLOOR" } };
  return {};
}

const ANSWER_LINE = `bot: ${ANSWER}`;

/** The terminal bot as `npm start` runs it with no platform configured, piped: a question a line, the answer on its `bot:` line. */
function startedTerminal(modelUrl: string, streamed: boolean, settings: Record<string, string> = {}): Driven {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-bench-streamed-"));
  const env = {
    ...benchBotSettings(modelUrl, dir),
    STREAM_ANSWERS: String(streamed),
    DISCORD_TOKEN: "",
    SLACK_BOT_TOKEN: "",
    SLACK_APP_TOKEN: "",
    ...settings,
  };
  const bot = startProductionBot(env, true);
  const output = new LineReader(bot.child.stdout!, "the terminal bot");
  let pid: number | undefined;
  return {
    get pid() {
      pid ??= bot.rss().processes.at(-1)!.pid;
      return pid;
    },
    async turn() {
      const answered = output.next((line) => line === ANSWER_LINE);
      bot.child.stdin!.write(`${QUESTION}\n`);
      await answered.catch((error: Error) => Promise.reject(new Error(`${error.message}\n${bot.logTail()}`)));
    },
    async stop() {
      bot.child.stdin!.end();
      await bot.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The floor in a process of its own (streaming-floor-process.ts), ready for turns. */
async function startedFloor(setup: StreamingFloorSetup): Promise<Driven> {
  const child = spawnTs(new URL("../support/streaming-floor-process.ts", import.meta.url));
  const output = new LineReader(child.stdout, `the ${setup.platform} floor`);
  const ready = output.next((line) => line === "ready");
  child.stdin.write(`${JSON.stringify(setup)}\n`);
  await ready;
  let turns = 0;
  return {
    pid: child.pid!,
    async turn() {
      const done = output.next((line) => line === "ok" || line.startsWith("error: "));
      child.stdin.write(`floor-${turns++ % 1}\n`);
      const outcome = await done;
      if (outcome !== "ok") throw new Error(`the ${setup.platform} floor's turn failed: ${outcome}`);
    },
    stop: () => stopChild(child),
  };
}

function sameBodies(bot: string[], floor: string[]): void {
  if (bot.length === 0 || bot.length !== floor.length || bot.some((body, i) => body !== floor[i])) {
    throw new Error(`the started bot's first-turn request bodies differ from the floor's:\n${bot.join("\n")}\n---\n${floor.join("\n")}`);
  }
}
