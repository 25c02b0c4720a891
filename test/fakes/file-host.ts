import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { answer, sendAnswer, type Answer } from "./fake-http-server.js";

/** A file request as a fake platform's file host received it. */
export interface FileRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/** A 1×1 PNG, as a real screenshot starts. */
export const PNG_BYTES = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** What a file host can be asked to do with a file: serve it, refuse it, stall, never end. */
export const fileAnswer = {
  bytes: (body: Buffer, contentType: string): Answer => ({ kind: "body", status: 200, contentType, body }),
  text: (text: string, contentType = "text/plain; charset=utf-8"): Answer => answer.text(200, text, contentType),
  status: (status: number): Answer => answer.text(status, `<html><body>${status}</body></html>`, "text/html"),
  /** Headers, then a byte now and then for ever. */
  slow: (contentType = "image/png"): Answer => answer.trickle(contentType, 200),
  /** Bytes for ever, without a length: an "image" of any size. */
  endless: (contentType = "image/png"): Answer => answer.endless(contentType),
};

/**
 * The file routes of a fake platform (Discord's CDN, Slack's files host), under `prefix` on the
 * fake's own server. Each file is served as the test says; every request is recorded, so a test
 * can tell that something was never fetched.
 */
export class FakeFileHost {
  readonly requests: FileRequest[] = [];
  private readonly files = new Map<string, Answer>();
  private readonly open = new Set<ServerResponse>();
  /** Answers instead of the file when it returns one (Slack's sign-in page for a bad token). */
  gate?: (request: FileRequest) => Answer | undefined;

  constructor(
    readonly prefix: string,
    private readonly origin: () => string,
  ) {}

  /** The host's base address, for DISCORD_CDN_URL / SLACK_FILES_URL. */
  get baseUrl(): string {
    return `${this.origin()}${this.prefix}`;
  }

  /** Serves `name` under a fresh path; returns its address. */
  serve(name: string, served: Answer): string {
    const path = `${this.prefix}${randomUUID()}/${encodeURIComponent(name)}`;
    this.files.set(path, served);
    return `${this.origin()}${path}`;
  }

  /** Requests for the file at `url`. */
  requestsFor(url: string): FileRequest[] {
    const path = new URL(url).pathname;
    return this.requests.filter((request) => request.path === path);
  }

  /** Answers a request under the prefix; false for any other. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    if (!path.startsWith(this.prefix)) return false;
    const request = { path, headers: req.headers };
    this.requests.push(request);
    this.open.add(res);
    res.on("close", () => this.open.delete(res));
    const served = this.gate?.(request) ?? this.files.get(path) ?? answer.text(404, "<html>not found</html>", "text/html");
    void sendAnswer(res, served);
    return true;
  }

  /** Ends the answers still streaming (slow and endless ones). */
  close(): void {
    for (const res of this.open) res.destroy();
  }
}
