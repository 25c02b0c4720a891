import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { FakeOpenAI } from "../fakes/fake-openai.js";

export interface ModelAndFolder {
  /** A fresh fake model for each test. */
  readonly model: FakeOpenAI;
  /** A fresh scratch folder for each test (database files, configs), removed afterwards. */
  readonly dir: string;
}

/** Registers hooks that give each test of the current `describe` a fake model and a scratch folder. */
export function useModelAndFolder(prefix = "agent-bot-"): ModelAndFolder {
  const state = {} as { model: FakeOpenAI; dir: string };
  beforeEach(async () => {
    state.model = await FakeOpenAI.start();
    state.dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await state.model.close();
    rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}
