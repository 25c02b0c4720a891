import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { knownVariables, loadConfig } from "../../src/config/env.js";
import { parseEnvExample, renderConfigurationPage, withCommandList } from "../../src/ops/config-docs.js";

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const REGENERATE = "run `npm run docs:config` and commit the result";

/** In the schema but not in .env.example, with the reason. */
const NOT_IN_EXAMPLE: Record<string, string> = {
  SHARDS: "set by discord.js's ShardingManager in each shard process it starts, never by hand",
};

/** A value in .env.example that is not the schema's parsed default, with the reason. */
const VALUE_IS_NOT_A_DEFAULT: Record<string, string> = {
  DAILY_TOKEN_BUDGET: '"unlimited" is how .env.example says "no limit"; the schema parses it (and unset) to no budget',
  DAILY_USER_TOKEN_BUDGET: '"unlimited" is how .env.example says "no limit"; the schema parses it (and unset) to no budget',
  DAILY_BUDGET: '"unlimited" is how .env.example says "no limit"; the schema parses it (and unset) to no budget',
  MONTHLY_BUDGET: '"unlimited" is how .env.example says "no limit"; the schema parses it (and unset) to no budget',
  MONTHLY_TOKEN_BUDGET: '"unlimited" is how .env.example says "no limit"; the schema parses it (and unset) to no budget',
  CHANNEL_DAILY_TOKEN_BUDGET: '"unlimited" is how .env.example says "no limit"; the schema parses it (and unset) to no budget',
};

/** How a parsed default is written in .env.example. */
function asWritten(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join(",");
  if (typeof value === "object" && value !== null) return Object.keys(value).length === 0 ? undefined : JSON.stringify(value);
  return String(value);
}

describe("the configuration reference (src/ops/config-docs.ts, .env.example, docs/configuration.md)", () => {
  const sections = parseEnvExample(read(".env.example"));
  const example = sections.flatMap((section) => section.variables);
  const exampleNames = example.map((variable) => variable.name);

  it("lists every variable of the schema in .env.example, and only those", () => {
    const schema = knownVariables().filter((name) => !(name in NOT_IN_EXAMPLE));
    expect(
      schema.filter((name) => !exampleNames.includes(name)),
      "in the schema but not in .env.example: add each with its default and a comment, then " + REGENERATE,
    ).toEqual([]);
    expect(
      exampleNames.filter((name) => !knownVariables().includes(name)),
      "in .env.example but not in the schema (src/config/env.ts or src/platforms/<name>/config.ts)",
    ).toEqual([]);
    expect(
      exampleNames.filter((name, i) => exampleNames.indexOf(name) !== i),
      "listed twice in .env.example",
    ).toEqual([]);
  });

  it("describes every variable in .env.example with a comment above it", () => {
    expect(example.filter((variable) => variable.description === "").map((variable) => variable.name)).toEqual([]);
  });

  it("shows the schema's own default as each value in .env.example", () => {
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    const differing = example.flatMap((variable) => {
      if (variable.name in VALUE_IS_NOT_A_DEFAULT) return [];
      const parsed = asWritten(defaults[variable.name]);
      // An empty value means "no default shown": fine only where the schema has none either (or one derived from others).
      const shown = variable.value === "" ? undefined : variable.value;
      return shown === parsed ? [] : [`${variable.name}: .env.example says ${shown ?? "nothing"}, the schema's default is ${parsed ?? "none"}`];
    });
    expect(differing, "make .env.example show the schema's default, then " + REGENERATE).toEqual([]);
  });

  it("is exactly what `npm run docs:config` writes now", () => {
    expect(read("docs/configuration.md"), "docs/configuration.md is out of date: " + REGENERATE).toBe(renderConfigurationPage(sections));
  });

  it("shows the command catalogue's commands in docs/admin.md", () => {
    const page = read("docs/admin.md");
    expect(page, "the command list in docs/admin.md is out of date: " + REGENERATE).toBe(withCommandList(page));
  });
});
