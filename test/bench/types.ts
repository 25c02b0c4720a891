/** How a run of the benchmark is sized and where its progress notes go. */
export interface BenchOptions {
  /** Tiny sizes: proves every part still runs, in seconds; its figures mean nothing. */
  quick: boolean;
  /** Progress notes for people watching; goes to stderr so stdout stays clean for --json. */
  note(message: string): void;
}

/** One figure a part measured, with what a reader needs to judge it. */
export interface Figure {
  /** Key in the JSON report. */
  key: string;
  label: string;
  value: number | null;
  unit?: string;
  /** A goal from the issue, shown next to the figure: "≤ 1.10". */
  goal?: string;
  /** Whether the goal is met; absent when the figure has no goal. */
  met?: boolean;
}

export interface PartResult {
  figures: Figure[];
  /** Extra detail kept in the JSON report only (per-round numbers, settings used). */
  detail?: Record<string, unknown>;
}

/** A part of the benchmark, run on its own; new parts are added to the registry. */
export interface BenchPart {
  id: string;
  title: string;
  run(options: BenchOptions): Promise<PartResult>;
}
