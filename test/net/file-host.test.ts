import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BoundedFetchError } from "../../src/net/bounded-fetch.js";
import { fetchFromFileHost } from "../../src/net/file-host.js";
import { answer, FakeHttpServer } from "../fakes/fake-http-server.js";
import type { FileLimits } from "../../src/contract/inbound.js";

const LIMITS: FileLimits = { maxBytes: 1024 * 1024, overflow: "fail", timeoutMs: 5_000 };

/** The failure a download ended with (or "ok"). */
async function failureOf(download: Promise<unknown>): Promise<string> {
  try {
    await download;
    return "ok";
  } catch (error) {
    if (error instanceof BoundedFetchError) return error.failure;
    throw error;
  }
}

describe("downloads from a platform's file host", () => {
  let host: FakeHttpServer;
  let elsewhere: FakeHttpServer;
  beforeEach(async () => {
    host = await FakeHttpServer.start();
    elsewhere = await FakeHttpServer.start();
    elsewhere.route = () => answer.text(200, "should never be asked");
  });
  afterEach(async () => {
    await host.close();
    await elsewhere.close();
  });

  const base = () => new URL(host.url("/files/"));
  const download = (address: string, limits: Partial<FileLimits> = {}, signal = new AbortController().signal) =>
    fetchFromFileHost(address, base(), { ...LIMITS, ...limits, headers: { authorization: "Bearer xoxb-secret" } }, signal);

  it("sends the credentials to the file host and reads the file", async () => {
    host.route = () => answer.text(200, "hello", "text/plain");

    const file = await download(host.url("/files/a.txt"));

    expect(file).toEqual({ bytes: Buffer.from("hello"), contentType: "text/plain", truncated: false });
    expect(host.requests[0]!.headers.authorization).toBe("Bearer xoxb-secret");
  });

  it("refuses an address off the host, or on it outside the file path, without connecting", async () => {
    expect(await failureOf(download(elsewhere.url("/files/a.png")))).toBe("not_allowed");
    expect(await failureOf(download(host.url("/api/users")))).toBe("not_allowed");
    expect(await failureOf(download("not a url"))).toBe("not_allowed");
    expect(elsewhere.requests).toEqual([]);
    expect(host.requests).toEqual([]);
  });

  it.each([
    ["another port of the same machine", () => elsewhere.url("/files/a.png")],
    ["https on the same host", () => host.url("/files/a.png").replace("http:", "https:")],
    ["the same host outside the file path", () => host.url("/api/a.png")],
  ])("does not follow a redirect to %s (so the token never goes there)", async (_what, target) => {
    host.route = (request) => (request.url.pathname === "/files/a.png" ? answer.text(302, "", "text/plain", { location: target() }) : answer.text(200, "x"));

    expect(await failureOf(download(host.url("/files/a.png")))).toBe("redirected");
    expect(elsewhere.requests).toEqual([]);
    expect(host.requests.map((request) => request.url.pathname)).toEqual(["/files/a.png"]);
  });

  it("follows a redirect that stays on the file host", async () => {
    host.route = (request) =>
      request.url.pathname === "/files/a.png" ? answer.text(302, "", "text/plain", { location: "/files/b.png" }) : answer.text(200, "moved");

    expect((await download(host.url("/files/a.png"))).bytes.toString()).toBe("moved");
  });

  it("stops reading an endless body at the byte cap: failing for an image, keeping the start of a text file", async () => {
    host.route = () => answer.endless("image/png");

    expect(await failureOf(download(host.url("/files/a.png"), { maxBytes: 100_000 }))).toBe("too_large");
    const start = await download(host.url("/files/a.log"), { maxBytes: 100_000, overflow: "truncate" });
    expect(start.truncated).toBe(true);
    expect(start.bytes.length).toBe(100_000);
  });

  it("counts the bytes after decompression, so a gzip bomb stops at the cap", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    host.route = () => ({ kind: "body", status: 200, contentType: "text/plain", body: bomb, headers: { "content-encoding": "gzip" } });

    expect(bomb.length).toBeLessThan(100_000);
    expect(await failureOf(download(host.url("/files/bomb.txt"), { maxBytes: 1024 * 1024 }))).toBe("too_large");
    const start = await download(host.url("/files/bomb.txt"), { maxBytes: 1024 * 1024, overflow: "truncate" });
    expect(start.bytes.length).toBe(1024 * 1024);
  });

  it("gives up on a host that trickles bytes, at the time limit", async () => {
    host.route = () => answer.trickle("image/png", 50);

    expect(await failureOf(download(host.url("/files/slow.png"), { timeoutMs: 300 }))).toBe("timeout");
  });

  it("rethrows the caller's own abort untouched", async () => {
    host.route = () => answer.trickle("image/png", 50);
    const controller = new AbortController();
    const pending = download(host.url("/files/slow.png"), {}, controller.signal);
    setTimeout(() => controller.abort(new Error("the turn ended")), 50);

    await expect(pending).rejects.toThrow("the turn ended");
  });
});
