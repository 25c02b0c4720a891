import { createServer, request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { closeServer } from "./close-server.js";

/**
 * A forward proxy on 127.0.0.1, as a corporate network has one: CONNECT tunnels for https
 * (it sees only the host and port), plain forwarding of absolute-address requests for http.
 * Every name it is asked for resolves to 127.0.0.1, on the port `route` gives for that host:port
 * (so a test can use a name only the proxy knows: a request that did not go through it fails).
 */
export class FakeHttpProxy {
  /** What it was asked, in order: "CONNECT host:port" or "METHOD http://host:port/path". */
  readonly seen: string[] = [];
  private readonly routes = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeHttpProxy> {
    const server = createServer();
    const proxy = new FakeHttpProxy(server);
    server.on("connection", (socket) => {
      proxy.sockets.add(socket);
      socket.once("close", () => proxy.sockets.delete(socket));
    });
    server.on("request", (req, res) => {
      proxy.seen.push(`${req.method} ${req.url}`);
      const target = new URL(req.url ?? "");
      const upstream = httpRequest(
        { host: "127.0.0.1", port: proxy.portFor(target.host, 80), method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    server.on("connect", (req, client: Socket, head: Buffer) => {
      proxy.seen.push(`CONNECT ${req.url}`);
      const upstream = connect(proxy.portFor(req.url ?? "", 443), "127.0.0.1", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      proxy.sockets.add(upstream);
      upstream.once("close", () => proxy.sockets.delete(upstream));
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Sends what is asked of `hostAndPort` ("model.internal:80") to 127.0.0.1:`port`. */
  route(hostAndPort: string, port: number): void {
    this.routes.set(hostAndPort, port);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await closeServer(this.server);
  }

  private portFor(host: string, defaultPort: number): number {
    const withPort = host.includes(":") ? host : `${host}:${defaultPort}`;
    return this.routes.get(withPort) ?? Number(withPort.slice(withPort.lastIndexOf(":") + 1));
  }
}
