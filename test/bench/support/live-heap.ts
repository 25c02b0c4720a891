import { once } from "node:events";
import WebSocket from "ws";

/** The option a bot is started with (NODE_OPTIONS) so that liveHeapMb can open its inspector later, on a free port. */
export const INSPECT_LATER = "--inspect-port=0";

const WAIT_MS = 30_000;

/**
 * The live JS heap of a running Node process, in MB, after full garbage collections: SIGUSR1 opens
 * its inspector (nothing listens before: the measured run is as production runs it), whose address
 * the process prints on stderr; HeapProfiler.collectGarbage, then process.memoryUsage() inside it.
 */
export async function liveHeapMb(pid: number, stderrTail: () => string): Promise<number> {
  process.kill(pid, "SIGUSR1");
  const deadline = Date.now() + WAIT_MS;
  let url: string | undefined;
  while (!(url = /Debugger listening on (ws:\/\/\S+)/.exec(stderrTail())?.[1])) {
    if (Date.now() > deadline) throw new Error("the bot's inspector did not open");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const socket = new WebSocket(url);
  await once(socket, "open");
  let nextId = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<any>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => reject(new Error(`the inspector did not answer ${method}`)), WAIT_MS);
      const onMessage = (raw: WebSocket.RawData) => {
        const message = JSON.parse(raw.toString()) as { id?: number; result?: unknown; error?: { message: string } };
        if (message.id !== id) return;
        socket.off("message", onMessage);
        clearTimeout(timer);
        if (message.error) reject(new Error(message.error.message));
        else resolve(message.result);
      };
      socket.on("message", onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    // twice: what the first collection freed may hold the last references to more
    await call("HeapProfiler.collectGarbage");
    await call("HeapProfiler.collectGarbage");
    const result = await call("Runtime.evaluate", { expression: "process.memoryUsage().heapUsed", returnByValue: true });
    return result.result.value / 1024 / 1024;
  } finally {
    socket.close();
  }
}
