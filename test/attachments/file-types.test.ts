import { describe, expect, it } from "vitest";
import { declaredKind, readAsText, sniffImage } from "../../src/attachments/file-types.js";
import { visionEnabled } from "../../src/attachments/vision.js";
import { PNG_BYTES } from "../fakes/file-host.js";

describe("what a shared file is", () => {
  it.each([
    ["screenshot.png", "image/png", "image"],
    ["photo.HEIC", "image/heic", "image"],
    ["build.log", "text/plain; charset=utf-8", "text"],
    ["data.json", "application/json", "text"],
    ["feed.xml", "application/atom+xml", "text"],
    ["main.ts", undefined, "text"],
    ["Dockerfile", "application/octet-stream", "text"],
    ["photo.jpg", undefined, "image"],
    // A name alone does not make a file text when its type says otherwise.
    ["notes.txt", "application/zip", "other"],
    ["report.pdf", "application/pdf", "other"],
    ["archive", undefined, "other"],
  ])("%s declared as %s is a(n) %s", (name, contentType, kind) => {
    expect(declaredKind({ name, contentType })).toBe(kind);
  });

  it("knows images by their magic numbers, not their claims", () => {
    expect(sniffImage(PNG_BYTES)).toBe("image/png");
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe("image/jpeg");
    expect(sniffImage(Buffer.from("GIF89a\x01\x00"))).toBe("image/gif");
    expect(sniffImage(Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 ")]))).toBe("image/webp");
    expect(sniffImage(Buffer.from("<!DOCTYPE html><html>"))).toBeUndefined();
    expect(sniffImage(Buffer.from("PK\x03\x04"))).toBeUndefined();
    expect(sniffImage(Buffer.alloc(0))).toBeUndefined();
  });

  it("reads text only when the bytes are text", () => {
    expect(readAsText(Buffer.from("line 1\n\x1b[31mred\x1b[0m\tok\r\n"), false)).toBe("line 1\n\x1b[31mred\x1b[0m\tok\r\n");
    expect(readAsText(Buffer.from("café ✓"), false)).toBe("café ✓");
    // A zip named .txt, UTF-16, invalid UTF-8, control-character soup: not text.
    expect(readAsText(Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.alloc(64)]), false)).toBeUndefined();
    expect(readAsText(Buffer.from("\ufeffhi", "utf16le"), false)).toBeUndefined();
    expect(readAsText(Buffer.from([0x61, 0xff, 0x62]), false)).toBeUndefined();
    expect(readAsText(Buffer.from("\x01\x02\x03\x04abc"), false)).toBeUndefined();
  });

  it("drops a character cut in half at the end of a truncated read, and only there", () => {
    const cut = Buffer.from("ok ✓").subarray(0, 5);
    expect(readAsText(cut, true)).toBe("ok ");
    expect(readAsText(cut, false)).toBeUndefined();
  });
});

describe("whether the model is shown images", () => {
  it.each([
    ["gpt-4o-mini", true],
    ["gpt-4.1-nano", true],
    ["o3", true],
    ["o3-mini", false],
    ["gpt-3.5-turbo", false],
    ["llava:13b", true],
    ["llama3.2-vision", true],
    ["qwen2.5vl:7b", true],
    ["llama3.1", false],
    ["gpt-4o-mini-transcribe", false],
    ["my-fine-tune", false],
  ])("VISION=auto with %s: %s", (model, sees) => {
    expect(visionEnabled("auto", model, "tools")).toBe(sees);
  });

  it("follows VISION=on and off, and never with the text ReAct protocol", () => {
    expect(visionEnabled("on", "llama3.1", "tools")).toBe(true);
    expect(visionEnabled("off", "gpt-4o", "tools")).toBe(false);
    expect(visionEnabled("on", "gpt-4o", "react")).toBe(false);
  });
});
