import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelProcess, type ModelProcess } from "./model-process.js";
import { assertSameRequestBodies } from "./same-bodies.js";

describe("the benchmark's check that bot and floor ask the model the same thing", () => {
  let model: ModelProcess;
  beforeAll(async () => {
    model = await startModelProcess();
  });
  afterAll(() => model.close());

  /** A "turn" of three model requests with these bodies. */
  const turnSending = (bodies: string[]) => async () => {
    for (const body of bodies) {
      const response = await fetch(`${model.baseUrl()}/chat/completions`, { method: "POST", body, headers: { "content-type": "application/json" } });
      await response.arrayBuffer();
    }
  };
  const bodies = ['{"model":"m","messages":[1]}', '{"model":"m","messages":[1,2]}', '{"model":"m","messages":[1,2,3]}'];

  it("passes when every arm sent the same bodies, and says how many it compared", async () => {
    await expect(
      assertSameRequestBodies(model, { name: "the bot", turn: turnSending(bodies) }, [{ name: "the floor", turn: turnSending([...bodies]) }]),
    ).resolves.toEqual({
      bodies: 6,
      bytes: 2 * bodies.join("").length,
    });
  });

  it("fails loudly, showing where, when one body differs by a byte", async () => {
    const other = [...bodies.slice(0, 2), '{"model":"m","messages":[1,2,4]}'];
    await expect(
      assertSameRequestBodies(model, { name: "the bot", turn: turnSending(bodies) }, [{ name: "the floor", turn: turnSending(other) }]),
    ).rejects.toThrow(/request 3: the floor and the bot sent different bodies\n {2}first difference at character 29/);
  });

  it("fails when an arm makes a different number of requests", async () => {
    await expect(
      assertSameRequestBodies(model, { name: "the bot", turn: turnSending(bodies) }, [{ name: "the floor", turn: turnSending(bodies.slice(0, 2)) }]),
    ).rejects.toThrow(/the floor made 4 model requests, the bot 6/);
  });
});
