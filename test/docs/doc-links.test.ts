import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGES = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", ...readdirSync(join(ROOT, "docs")).map((name) => `docs/${name}`)].filter((page) =>
  page.endsWith(".md"),
);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");

function anchorsOf(page: string): Set<string> {
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of readFileSync(join(ROOT, page), "utf8").split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading && !inCode) anchors.add(slug(heading[1]!));
  }
  return anchors;
}

describe("the links between README.md and the docs/ pages", () => {
  it("lead to files and headings that exist", () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const [, target] of readFileSync(join(ROOT, page), "utf8").matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?|mailto):/.test(target!)) continue;
        const [path, anchor] = target!.split("#") as [string, string | undefined];
        const file = path === "" ? page : normalize(join(dirname(page), path));
        if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor && file.endsWith(".md") && !anchorsOf(file).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken, "a section moved? point the link at the page it is on now").toEqual([]);
  });
});
