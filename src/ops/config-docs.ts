import { ASK, COMMANDS, type CommandSpec, GROUPS } from "../runner/commands/catalog.js";
import type { Access } from "../contract/commands.js";

/**
 * The configuration reference and the command list are written from the code's own sources
 * (`.env.example`, the command catalogue) by `npm run docs:config`, and a test fails when the
 * committed pages differ from what this writes, so the docs cannot drift from the code.
 */

interface ExampleVariable {
  name: string;
  /** The value in `.env.example`: the default, or "" when there is none to show. */
  value: string;
  /** The comment lines above it (shared by variables listed under one comment). */
  description: string;
}

interface ExampleSection {
  title: string;
  variables: ExampleVariable[];
}

const SECTION = /^# --- (.+) ---$/;
const VARIABLE = /^([A-Z][A-Z0-9_]*)=(.*)$/;

/** Reads `.env.example`: sections headed `# --- Name ---`, a comment above each variable, the default as its value. */
export function parseEnvExample(text: string): ExampleSection[] {
  const sections: ExampleSection[] = [];
  let comment: string[] = [];
  let lastDescription = "";
  for (const line of text.split("\n").map((l) => l.trimEnd())) {
    const heading = SECTION.exec(line);
    if (heading) {
      sections.push({ title: heading[1]!, variables: [] });
      comment = [];
      lastDescription = "";
      continue;
    }
    if (line === "") {
      comment = [];
      lastDescription = "";
      continue;
    }
    if (line.startsWith("#")) {
      comment.push(line.replace(/^#\s?/, ""));
      continue;
    }
    const variable = VARIABLE.exec(line);
    const section = sections.at(-1);
    if (!variable || !section) throw new Error(`.env.example: not a "# --- Section ---", a comment or NAME=value: ${line}`);
    // Variables listed under one comment (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, ...) share it.
    const description = comment.length > 0 ? comment.join(" ") : lastDescription;
    section.variables.push({ name: variable[1]!, value: variable[2]!, description });
    lastDescription = description;
    comment = [];
  }
  return sections;
}

const cell = (text: string): string => text.replaceAll("|", "\\|");

/** docs/configuration.md: one table per section of `.env.example`. */
export function renderConfigurationPage(sections: ExampleSection[]): string {
  const lines = [
    "# Configuration",
    "",
    "<!-- Generated from .env.example by `npm run docs:config`; edit .env.example, not this page. -->",
    "",
    "The bot reads its settings from environment variables, or from a `.env` file in the working",
    "directory (copy [`.env.example`](../.env.example)). Every variable is optional unless noted; an empty",
    "value counts as unset. A wrong value stops the bot at start with one line naming the variable.",
    "",
  ];
  for (const section of sections) {
    lines.push(`## ${section.title}`, "", "| Variable | Default | What it does |", "| --- | --- | --- |");
    for (const variable of section.variables) {
      const value = variable.value === "" ? "" : `\`${cell(variable.value)}\``;
      lines.push(`| \`${variable.name}\` | ${value} | ${cell(variable.description)} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

const WHO: Record<Access, string> = { anyone: "anyone", moderator: "moderators and admins", admin: "admins" };

function usage(spec: CommandSpec): string {
  const words = [`/${spec.group}`, spec.subgroup, spec.name].filter(Boolean).join(" ");
  const options = spec.options.map((option) => (option.required ? `${option.name}` : `[${option.name}]`));
  return [words, ...options].join(" ");
}

const COMMANDS_START = "<!-- commands: generated from src/runner/commands/catalog.ts by `npm run docs:config` -->";
const COMMANDS_END = "<!-- end of commands -->";

/** The list of every command, from the catalogue, as docs/admin.md shows it between the two markers. */
function renderCommandList(): string {
  const lines = [COMMANDS_START, "", "| Command | Who | What it does |", "| --- | --- | --- |"];
  lines.push(`| \`/${ASK.name} ${ASK.option.name}\` | anyone | ${cell(ASK.description)} |`);
  for (const group of GROUPS) {
    for (const spec of COMMANDS.filter((command) => command.group === group.name)) {
      const roles = spec.needsRoles ? " (Discord only: needs roles)" : "";
      lines.push(`| \`${usage(spec)}\` | ${WHO[spec.access]} | ${cell(spec.description)}${roles} |`);
    }
  }
  lines.push("", COMMANDS_END);
  return lines.join("\n");
}

/** Puts the command list between its markers in a page that has them. */
export function withCommandList(page: string): string {
  const start = page.indexOf(COMMANDS_START);
  const end = page.indexOf(COMMANDS_END);
  if (start < 0 || end < start) throw new Error("the admin page has no command list markers");
  return page.slice(0, start) + renderCommandList() + page.slice(end + COMMANDS_END.length);
}
