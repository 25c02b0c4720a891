import { COMMANDS, GROUPS, type CommandSpec, type OptionValues } from "./catalog.js";
import type { BotCommand } from "../../contract/commands.js";

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
    for (const form of textForms(spec)) {
      const formWords = form === "" ? [] : form.split(" ");
      const matches = formWords.every((word, i) => words[1 + i]?.word.toLowerCase() === word);
      if (!matches) continue;
      const rest = words[1 + formWords.length];
      const command = readOptions(spec, rest ? text.trim().slice(rest.at) : "");
      if (command || form !== "") return command;
    }
  }
  // A bare subgroup means its first subcommand ("settings channel" shows the channel's settings).
  const subgroup = words.length === 2 ? specs.find((spec) => spec.subgroup === words[1]!.word.toLowerCase()) : undefined;
  return subgroup?.build({});
}

/** The words that name a command after its group: "channel-add", "channels add", "channel show", or none (/usage). */
function textForms(spec: CommandSpec): string[] {
  if (spec.subgroup) return [`${spec.subgroup} ${spec.name}`];
  return [spec.name, ...(spec.aliases ?? [])];
}

function readOptions(spec: CommandSpec, rest: string): BotCommand | undefined {
  const values: OptionValues = {};
  let remaining = rest;
  for (const [index, option] of spec.options.entries()) {
    if (option.kind === "text") {
      // Two text options are typed with a bar between them: "schedule add WHEN | TASK".
      const bar = spec.options[index + 1]?.kind === "text" ? remaining.indexOf("|") : -1;
      if (spec.options[index + 1]?.kind === "text" && bar < 0) return undefined;
      const value = (bar < 0 ? remaining : remaining.slice(0, bar)).trim();
      if (value === "" && option.required) return undefined;
      values[option.name] = value === "" ? undefined : value;
      remaining = bar < 0 ? "" : remaining.slice(bar + 1);
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
    // An optional member is named by a mention; another word is the next option's ("budget user day 5k").
    if (option.kind === "user" && !option.required && !raw.startsWith("<@")) {
      values[option.name] = null;
      remaining = `${raw}${remaining}`;
      continue;
    }
    if (option.kind === "integer") {
      if (/^default$/i.test(raw)) values[option.name] = null;
      else if (/^\d+$/.test(raw)) values[option.name] = Number(raw);
      else return undefined;
    } else if (option.kind === "choice") {
      const choice = option.choices?.find((value) => value === raw.toLowerCase());
      if (choice === undefined) return undefined;
      values[option.name] = choice;
    } else if (option.kind === "tool" || option.kind === "model") {
      values[option.name] = raw;
    } else {
      values[option.name] = platformId(raw);
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
