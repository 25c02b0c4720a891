import { COMMANDS, GROUPS, type BotCommand, type CommandSpec, type OptionValues } from "./catalog.js";

export interface TextCommandOptions {
  /** The platform has roles (Discord); commands about roles are unknown elsewhere. */
  roles: boolean;
}

/**
 * Reads the text form of a command (the terminal, Slack's slash command text), as the catalog
 * describes it: "GROUP SUBCOMMAND OPTIONS…", e.g. "tools enable wikipedia", "settings memory 8",
 * "settings prompt Answer in French.". A bare group means its first subcommand ("tools" lists).
 * Undefined for anything else.
 */
export function parseCommandText(text: string, options: TextCommandOptions = { roles: true }): BotCommand | undefined {
  const words = tokens(text.trim().replace(/^\//, ""));
  const group = words[0]?.word.toLowerCase();
  if (group === "help") return { kind: "help" };
  if (!GROUPS.some((spec) => spec.name === group)) return undefined;
  const specs = COMMANDS.filter((spec) => spec.group === group && (options.roles || !spec.needsRoles));
  if (words.length === 1) return specs[0]?.build({});
  for (const spec of specs) {
    for (const form of [spec.name, ...(spec.aliases ?? [])]) {
      const formWords = form.split(" ");
      const matches = formWords.every((word, i) => words[1 + i]?.word.toLowerCase() === word);
      if (!matches) continue;
      const rest = words[1 + formWords.length];
      return readOptions(spec, rest ? text.trim().slice(rest.at) : "");
    }
  }
  return undefined;
}

function readOptions(spec: CommandSpec, rest: string): BotCommand | undefined {
  const values: OptionValues = {};
  let remaining = rest;
  for (const option of spec.options) {
    if (option.kind === "text") {
      values[option.name] = remaining.trim() === "" ? undefined : remaining.trim();
      remaining = "";
      continue;
    }
    const [first] = tokens(remaining);
    remaining = first ? remaining.slice(first.at + first.word.length) : "";
    const raw = first?.word;
    if (raw === undefined) {
      if (option.required) return undefined;
      values[option.name] = null;
      continue;
    }
    if (option.kind === "integer") {
      if (/^default$/i.test(raw)) values[option.name] = null;
      else if (/^\d+$/.test(raw)) values[option.name] = Number(raw);
      else return undefined;
    } else {
      values[option.name] = option.kind === "tool" ? raw : platformId(raw);
    }
  }
  if (remaining.trim() !== "") return undefined;
  return spec.build(values);
}

function tokens(text: string): { word: string; at: number }[] {
  return [...text.matchAll(/\S+/g)].map((match) => ({ word: match[0], at: match.index }));
}

/** An id from a platform mention token: <#C123|general>, <@U123>, <@&123>, <!subteam^S1|name>, or a bare id. */
function platformId(token: string): string {
  const match = /^<[#@!][&!]?(?:subteam\^)?([\w.-]+)(?:\|[^>]*)?>$/.exec(token.trim());
  return match ? match[1]! : token.trim();
}
