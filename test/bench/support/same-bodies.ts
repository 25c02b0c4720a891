import type { ModelProcess } from "./model-process.js";
import { MODEL_REQUESTS_PER_TURN } from "./turn-script.js";

type TurnFn = (conversation: string) => Promise<void>;

/** Turns per arm whose bodies are compared: the first has no history, the second carries the first. */
const TURNS_COMPARED = 2;

/**
 * The floor is only a floor if it asks the model exactly what the bot asks. Runs two turns of a
 * fresh conversation through each arm while the model keeps the request bodies, and throws,
 * showing where, unless every arm sent the reference's bodies byte for byte.
 */
export async function assertSameRequestBodies(
  model: ModelProcess,
  reference: { name: string; turn: TurnFn },
  others: { name: string; turn: TurnFn }[],
): Promise<{ bodies: number; bytes: number }> {
  const bodiesOf = (turn: TurnFn) =>
    model.recordBodies(async () => {
      for (let i = 0; i < TURNS_COMPARED; i++) await turn("bodies-check");
    });
  const expected = await bodiesOf(reference.turn);
  if (expected.length !== TURNS_COMPARED * MODEL_REQUESTS_PER_TURN) {
    throw new Error(`${reference.name} made ${expected.length} model requests in ${TURNS_COMPARED} turns, not ${TURNS_COMPARED * MODEL_REQUESTS_PER_TURN}`);
  }
  for (const other of others) {
    const got = await bodiesOf(other.turn);
    if (got.length !== expected.length) throw new Error(`${other.name} made ${got.length} model requests, ${reference.name} ${expected.length}`);
    got.forEach((body, index) => {
      if (body !== expected[index]) {
        throw new Error(
          `request ${index + 1}: ${other.name} and ${reference.name} sent different bodies\n${whereTheyDiffer(expected[index]!, body, reference.name, other.name)}`,
        );
      }
    });
  }
  return { bodies: expected.length, bytes: expected.reduce((total, body) => total + Buffer.byteLength(body), 0) };
}

function whereTheyDiffer(a: string, b: string, nameA: string, nameB: string): string {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const from = Math.max(0, at - 80);
  return `  first difference at character ${at}:\n  ${nameA}: …${a.slice(from, at + 120)}\n  ${nameB}: …${b.slice(from, at + 120)}`;
}
