import { parseArgs } from "node:util";

/**
 * The one way the `npm run` tools read their arguments: node:util's parseArgs in strict mode,
 * `--help` (or `-h`) printing what the tool does, its options and examples (exit 0), and anything
 * else it does not know refused with one line on stderr (exit 2, as for a usage error), before the
 * tool reads its configuration or touches a file.
 */

interface OptionSpec {
  type: "boolean" | "string";
  description: string;
  /** The value's placeholder in the help ("SECONDS"); string options only. */
  valueName?: string;
}

interface PositionalSpec {
  /** As the help shows it, e.g. "TARGET". */
  name: string;
  description: string;
}

export interface CommandSpec<O extends Record<string, OptionSpec>> {
  /** How it is run, e.g. "npm run backup". */
  command: string;
  /** What it does, in a sentence or two. */
  summary: string;
  options: O;
  /** At most one optional positional argument, or none. */
  positional?: PositionalSpec;
  examples: readonly string[];
}

type Values<O extends Record<string, OptionSpec>> = { [K in keyof O]: O[K]["type"] extends "boolean" ? boolean : string | undefined };

export interface ParsedCommand<O extends Record<string, OptionSpec>> {
  values: Values<O>;
  positional?: string;
}

/** Reads `args` (the process's by default); prints the help or the refusal and exits when that is all there is to do. */
export function parseCommandLine<O extends Record<string, OptionSpec>>(spec: CommandSpec<O>, args: string[] = process.argv.slice(2)): ParsedCommand<O> {
  const options = Object.fromEntries([
    ["help", { type: "boolean", short: "h" }],
    ...Object.entries(spec.options).map(([name, option]) => [name, { type: option.type }]),
  ]) as Record<string, { type: "boolean" | "string"; short?: string }>;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: spec.positional !== undefined });
  } catch (error) {
    refuse(spec, describeParseError(error));
  }
  if (parsed.values.help) {
    process.stdout.write(helpText(spec));
    process.exit(0);
  }
  if (parsed.positionals.length > 1) refuse(spec, `one ${spec.positional!.name} at most (got ${parsed.positionals.length})`);
  const values = Object.fromEntries(
    Object.entries(spec.options).map(([name, option]) => [name, option.type === "boolean" ? parsed.values[name] === true : parsed.values[name]]),
  ) as Values<O>;
  return { values, positional: parsed.positionals[0] };
}

/** Refuses the arguments with one line on stderr and exit code 2; also for a value the tool itself finds wrong. */
export function refuse(spec: Pick<CommandSpec<Record<string, OptionSpec>>, "command">, problem: string): never {
  process.stderr.write(`${spec.command}: ${problem}; see ${spec.command} -- --help\n`);
  process.exit(2);
}

function describeParseError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const quoted = /'([^']*)'/.exec(message ?? "")?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${quoted ?? ""}`.trim();
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `unexpected argument ${quoted ?? ""}`.trim();
  // A value given to a flag (--csv=yes), or none to an option that needs one.
  return (message ?? String(error)).split("\n")[0]!.replace(/^Option/, "option");
}

function helpText(spec: CommandSpec<Record<string, OptionSpec>>): string {
  const usage = [spec.command, spec.positional ? `[-- ${spec.positional.name}]` : Object.keys(spec.options).length > 0 ? "[-- OPTIONS]" : ""];
  const rows: [string, string][] = [
    ...Object.entries(spec.options).map(([name, option]): [string, string] => [
      `--${name}${option.type === "string" ? ` ${option.valueName ?? "VALUE"}` : ""}`,
      option.description,
    ]),
    ["-h, --help", "show this help"],
  ];
  const width = Math.max(...rows.map(([left]) => left.length), spec.positional?.name.length ?? 0) + 2;
  const table = (entries: [string, string][]) => entries.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join("\n");
  const sections = [`Usage: ${usage.filter(Boolean).join(" ")}`, wrap(spec.summary, 80)];
  if (spec.positional) sections.push(`Arguments:\n${table([[spec.positional.name, spec.positional.description]])}`);
  sections.push(`Options:\n${table(rows)}`, `Examples:\n${spec.examples.map((example) => `  ${example}`).join("\n")}`);
  return `${sections.join("\n\n")}\n`;
}

/** Breaks text into lines of at most `width` characters, at spaces. */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join("\n");
}
