import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatVerdicts, runDoctor } from "../../src/ops/doctor.js";
import { FakeOpenAI } from "../fakes/fake-openai.js";

describe("npm run doctor", () => {
  let model: FakeOpenAI;
  let dir: string;
  beforeEach(async () => {
    model = await FakeOpenAI.start();
    dir = mkdtempSync(join(tmpdir(), "agent-bot-doctor-"));
  });
  afterEach(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("passes every check when the configuration, database and model are fine", async () => {
    const verdicts = await runDoctor({ OPENAI_BASE_URL: model.url, OPENAI_MODEL: "fake-model", DATABASE_PATH: join(dir, "bot.sqlite") });
    expect(verdicts.map((v) => [v.item, v.ok])).toEqual([
      ["configuration", true],
      ["database", true],
      ["model", true],
    ]);
    expect(verdicts[2]!.detail).toBe(`${model.url} answers with 1 model(s); fake-model is available`);
    expect(formatVerdicts(verdicts)).toMatch(/All checks passed\.$/);
  });

  it("says which item fails and why", async () => {
    const verdicts = await runDoctor({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", DATABASE_PATH: join(dir, "bot.sqlite") });
    const modelVerdict = verdicts.find((v) => v.item === "model")!;
    expect(modelVerdict.ok).toBe(false);
    expect(modelVerdict.detail).toMatch(/^http:\/\/127\.0\.0\.1:9\/v1 did not answer: /);
    expect(formatVerdicts(verdicts)).toContain("✘ model: ");
    expect(formatVerdicts(verdicts)).toMatch(/1 check\(s\) failed\.$/);
  });

  it("stops at a broken configuration with the variable's name", async () => {
    const verdicts = await runDoctor({ AGENT_PROTOCOL: "telepathy" });
    expect(verdicts).toEqual([{ item: "configuration", ok: false, detail: 'AGENT_PROTOCOL must be tools or react (got "telepathy")' }]);
  });
});
