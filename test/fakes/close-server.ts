import type { Server } from "node:http";

/** Closes a fake's HTTP server at once, open keep-alive connections included. */
export function closeServer(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!server) return resolve();
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
