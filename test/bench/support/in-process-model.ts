import { scriptedResponse } from "./bench-model.js";
import { builtBot } from "./built-bot.js";

/**
 * Runs `build` while the global fetch answers from the turn script in-process, with no socket.
 * The openai client picks fetch up when it is constructed, so clients built inside `build` keep
 * the stub and everything else keeps the real fetch. Used to measure our own CPU per turn
 * without the network stack's noise.
 */
export async function withInProcessModel<T>(build: () => Promise<T>): Promise<T> {
  await builtBot(); // loaded with the real fetch in place: it must know which fetch is the built-in one
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (_input, init) => {
    const body = typeof init?.body === "string" ? Buffer.from(init.body) : Buffer.from(init?.body as Uint8Array);
    return new Response(scriptedResponse(body), { status: 200, headers: { "content-type": "application/json" } });
  };
  try {
    return await build();
  } finally {
    globalThis.fetch = realFetch;
  }
}
