import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./close-server.js";

/** A span as the collector received it (OTLP/JSON), its attributes read into plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  startMs: number;
  endMs: number;
  resource: Record<string, unknown>;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: OtlpValue[] } };
type OtlpAttribute = { key: string; value: OtlpValue };

function plainValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plainValue);
  return undefined;
}

const attributesOf = (list: OtlpAttribute[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, plainValue(a.value)]));
const nanosToMs = (nanos: string | number) => Number(BigInt(nanos) / 1_000_000n);

/**
 * A local OpenTelemetry collector for tests: takes OTLP/HTTP JSON exports at POST /v1/traces and
 * keeps their spans. `hang()` makes it take requests and never answer them (a dead collector).
 */
export class FakeOtlpCollector {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests received, answered or not. */
  requests = 0;
  /** The authorization header of the last export. */
  authorization: string | undefined;
  private hanging = false;
  private readonly held = new Set<ServerResponse>();
  private server?: Server;
  url = "";

  static async start(): Promise<FakeOtlpCollector> {
    const fake = new FakeOtlpCollector();
    await fake.listen();
    return fake;
  }

  hang(): this {
    this.hanging = true;
    return this;
  }

  /** Requests received and still unanswered. */
  get unanswered(): number {
    return this.held.size;
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        if (req.method !== "POST" || req.url !== "/v1/traces") {
          res.writeHead(404).end();
          return;
        }
        this.requests++;
        this.authorization = req.headers.authorization;
        if (this.hanging) {
          this.held.add(res);
          res.on("close", () => this.held.delete(res));
          return;
        }
        this.take(Buffer.concat(chunks).toString("utf8"));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    return new Promise((resolve) => {
      this.server!.listen(0, "127.0.0.1", () => {
        this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
        resolve();
      });
    });
  }

  private take(body: string): void {
    const parsed = JSON.parse(body) as {
      resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: Record<string, any>[] }[] }[];
    };
    for (const resourceSpans of parsed.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            status: span.status ?? {},
            startMs: nanosToMs(span.startTimeUnixNano),
            endMs: nanosToMs(span.endTimeUnixNano),
            resource,
          });
        }
      }
    }
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    await closeServer(this.server);
  }
}
