import { runLoad, type LoadShape } from "./load.js";
import { median, quantile, sum } from "./stats.js";

type TurnFn = (conversation: string) => Promise<void>;

interface ArmFigures {
  turns: number;
  turnsPerS: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of this process per turn (the fake model runs in another process). */
  cpuMsPerTurn: number;
}

export interface Comparison {
  floor: ArmFigures;
  subject: ArmFigures;
  /** A third arm measured in the same blocks, when one was given (the bare loop with the SDK's defaults). */
  reference?: ArmFigures;
  /** Subject time / floor time over all blocks: how much longer a turn takes with everything that is ours. */
  ratio: number;
  /** The same ratio block by block; its median shrugs off a stall that hit one block. */
  blockRatioMedian: number;
  blocks: number;
}

export interface CompareShape extends LoadShape {
  blocks: number;
}

type ArmName = "floor" | "subject" | "reference";

/**
 * Runs floor and subject (and `reference`, if given) in many short alternating blocks, each block
 * in the reverse order of the one before (ABBA), so the machine's drift and other tenants' bursts
 * hit every arm alike; pools each arm's turn latencies and CPU time.
 */
export async function compareArms(floor: TurnFn, subject: TurnFn, shape: CompareShape, reference?: TurnFn): Promise<Comparison> {
  const arms = { floor: newArm(floor), subject: newArm(subject), reference: newArm(reference ?? floor) };
  const names: ArmName[] = reference ? ["floor", "subject", "reference"] : ["floor", "subject"];
  const blockRatios: number[] = [];
  for (let block = 0; block < shape.blocks; block++) {
    const order = block % 2 === 0 ? names : [...names].reverse();
    const wall = { floor: 0, subject: 0, reference: 0 };
    for (const name of order) {
      const arm = arms[name];
      const cpu = process.cpuUsage();
      const run = await runLoad(arm.turn, { ...shape, latencies: arm.latencies });
      const used = process.cpuUsage(cpu);
      arm.cpuMicros += used.user + used.system;
      arm.wallMs += run.wallMs;
      wall[name] = run.wallMs;
    }
    blockRatios.push(wall.subject / wall.floor);
  }
  const floorFigures = figures(arms.floor);
  const subjectFigures = figures(arms.subject);
  return {
    floor: floorFigures,
    subject: subjectFigures,
    ...(reference ? { reference: figures(arms.reference) } : {}),
    ratio: arms.subject.wallMs / arms.floor.wallMs,
    blockRatioMedian: median(blockRatios),
    blocks: shape.blocks,
  };
}

function newArm(turn: TurnFn) {
  return { turn, latencies: [] as number[], wallMs: 0, cpuMicros: 0 };
}

function figures(arm: ReturnType<typeof newArm>): ArmFigures {
  const turns = arm.latencies.length;
  return {
    turns,
    turnsPerS: (turns * 1000) / arm.wallMs,
    meanMs: sum(arm.latencies) / turns,
    p50Ms: quantile(arm.latencies, 0.5),
    p99Ms: quantile(arm.latencies, 0.99),
    cpuMsPerTurn: arm.cpuMicros / 1000 / turns,
  };
}
