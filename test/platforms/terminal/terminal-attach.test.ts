import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeLocalFile, localFiles } from "../../../src/platforms/terminal/local-files.js";
import { TerminalAdapter } from "../../../src/platforms/terminal/terminal-adapter.js";
import { servicesFor } from "../../../src/start-platforms.js";
import { reply } from "../../fakes/fake-openai.js";
import { startTestApp, type TestApp } from "../../support/test-app.js";

describe("the terminal's /attach PATH", () => {
  let t: TestApp;
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "agent-bot-attach-"));
  });
  afterEach(async () => {
    await t?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Types the lines into a real TerminalAdapter until the end of input; resolves with what it printed. */
  async function session(lines: string[], env: Record<string, string> = {}): Promise<string[]> {
    t = await startTestApp(env);
    t.model.otherwise(reply.text("ok"));
    const input = new PassThrough();
    const printed: string[] = [];
    const output = new Writable({
      write(chunk, _encoding, done) {
        printed.push(String(chunk).replace(/\n$/, ""));
        done();
      },
    });
    const adapter = new TerminalAdapter(servicesFor(t.app, { streams: { input, output } }));
    await adapter.start();
    input.end(lines.map((line) => `${line}\n`).join(""));
    await adapter.finished;
    await t.app.intake.idle();
    return printed;
  }

  it("attaches a file to the next question only, and lists itself in /help", async () => {
    writeFileSync(join(folder, "app.log"), "boot ok\npanic: nil map\n");

    const printed = await session(["/help", `/attach ${join(folder, "app.log")}`, "why does it panic?", "and now?"]);

    expect(printed[0]).toMatch(/\n\/attach PATH — attaches a local file \(an image, a log, code\) to your next question$/);
    expect(printed).toContain("Attached app.log; it goes with your next question.");
    expect(t.model.question(0).text).toBe("why does it panic?\n[text file: app.log, 23 bytes]\nboot ok\npanic: nil map\n[end of app.log]");
    expect(t.model.question(1).text).toBe("and now?");
  });

  it("refuses what is not a regular file, a FIFO included (reading one could wait for ever)", async () => {
    mkdirSync(join(folder, "dir"));
    execFileSync("mkfifo", [join(folder, "pipe")]);

    const printed = await session([
      `/attach ${join(folder, "missing.txt")}`,
      `/attach ${join(folder, "dir")}`,
      `/attach ${join(folder, "pipe")}`,
      "/attach",
      "hello",
    ]);

    expect(printed.slice(0, 4)).toEqual([
      `Cannot attach: there is no file ${join(folder, "missing.txt")}.`,
      `Cannot attach: ${join(folder, "dir")} is not a regular file.`,
      `Cannot attach: ${join(folder, "pipe")} is not a regular file.`,
      "Usage: /attach PATH — attaches a local file (an image, a log, code) to your next question.",
    ]);
    expect(t.model.question(0).text).toBe("hello");
  });

  it("refuses /proc, /sys and /dev outright, through a symlink too (/proc/self/environ holds the bot's keys)", async () => {
    symlinkSync("/proc/self/environ", join(folder, "innocent.txt"));
    symlinkSync("/proc/self", join(folder, "me"));

    const printed = await session([
      "/attach /proc/self/environ",
      `/attach ${join(folder, "innocent.txt")}`,
      `/attach ${join(folder, "me", "environ")}`,
      "/attach /sys/no/such/file",
      "/attach /dev/null",
      "hello",
    ]);

    const refusal = (path: string) => `Cannot attach: ${path} is a system path (files under /proc, /sys and /dev are never attached).`;
    expect(printed.slice(0, 5)).toEqual([
      refusal("/proc/self/environ"),
      refusal(join(folder, "innocent.txt")),
      refusal(join(folder, "me", "environ")),
      refusal("/sys/no/such/file"),
      refusal("/dev/null"),
    ]);
    expect(t.model.question(0).text).toBe("hello");
  });

  it("refuses a system path at read time too, if the attached file became a symlink to one", async () => {
    const path = join(folder, "notes.txt");
    writeFileSync(path, "notes");
    const file = await describeLocalFile(path);
    rmSync(path);
    symlinkSync("/proc/self/environ", path);

    await expect(localFiles.fetchFile(file, { maxBytes: 1000, overflow: "fail", timeoutMs: 1000 }, new AbortController().signal)).rejects.toThrow(
      "notes.txt is a system path (files under /proc, /sys and /dev are never attached)",
    );
  });

  it("reads a local file no further than the cap, whatever size /attach saw", async () => {
    const path = join(folder, "grown.log");
    writeFileSync(path, "x");
    const file = await describeLocalFile(path);
    // The file grows after /attach described it.
    writeFileSync(path, Buffer.alloc(1024 * 1024, "y"));
    const signal = new AbortController().signal;

    await expect(localFiles.fetchFile(file, { maxBytes: 1000, overflow: "fail", timeoutMs: 1000 }, signal)).rejects.toMatchObject({ failure: "too_large" });
    const start = await localFiles.fetchFile(file, { maxBytes: 1000, overflow: "truncate", timeoutMs: 1000 }, signal);
    expect(start).toEqual({ bytes: Buffer.alloc(1000, "y"), truncated: true });
    await expect(
      localFiles.fetchFile({ name: "passwd", url: "https://example.org/etc/passwd" }, { maxBytes: 1000, overflow: "fail", timeoutMs: 1000 }, signal),
    ).rejects.toMatchObject({
      failure: "not_allowed",
    });
  });
});
