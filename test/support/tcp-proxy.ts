import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL in the outage tests): `cut()` drops
 * every connection through it and refuses new ones, as a database that went away does; `resume()`
 * lets connections through again.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private down = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy!: TcpProxy;
    const server = createServer((client) => proxy.accept(client, target));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("the proxy has no port");
    proxy = new TcpProxy(server, address.port);
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(this.port);
    return proxied.toString();
  }

  /** Drops every open connection (both ends) and refuses new ones until `resume()`. */
  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  resume(): void {
    this.down = false;
  }

  /** Connections open through the proxy now (each counted once per side). */
  get openConnections(): number {
    return this.sockets.size / 2;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    // Refused: the client sees its connection reset at once, as from a server that is not there.
    if (this.down) return void client.resetAndDestroy();
    const upstream = createConnection(target);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.on("error", () => to.destroy());
      from.on("close", () => {
        this.sockets.delete(from);
        to.destroy();
      });
      from.pipe(to);
    }
  }
}
