import { describe, expect, it } from "vitest";
import { lazyChild } from "../../src/log.js";
import { captureLogs } from "../support/log-capture.js";

describe("a lazily made child logger", () => {
  it("writes the same fields as pino's child, redacted alike, for objects, errors and bare messages", () => {
    const lazyLog = captureLogs("info");
    const eagerLog = captureLogs("info");
    const bindings = { turnId: "t1", platform: "discord" };
    const lazy = lazyChild(lazyLog.logger, bindings).child({ tool: "calculator" });
    const eager = eagerLog.logger.child(bindings).child({ tool: "calculator" });
    const failure = Object.assign(new Error("refused"), { token: "xoxb-secret" });

    for (const logger of [lazy, eager]) {
      logger.info({ ms: 3, headers: { authorization: "Bearer sk-secret" } }, "tool finished");
      logger.warn({ err: failure }, "tool failed");
      logger.error(failure);
      logger.info("plain %s", "words");
      logger.debug({ text: "never written at info" }, "debug");
    }

    const comparable = (lines: Record<string, unknown>[]) => lines.map(({ time: _time, ...line }) => line);
    expect(comparable(lazyLog.lines)).toEqual(comparable(eagerLog.lines));
    expect(lazyLog.lines[0]).toMatchObject({ turnId: "t1", platform: "discord", tool: "calculator", ms: 3, headers: { authorization: "[redacted]" } });
    expect(lazyLog.lines[1]).toMatchObject({ tool: "calculator", err: { message: "refused", token: "[redacted]" } });
    expect(lazyLog.text()).not.toContain("secret");
  });

  it("makes no pino child for what it does not write, and one, once, for what needs it", () => {
    const log = captureLogs("info");
    let made = 0;
    const parent = log.logger;
    const counting = new Proxy(parent, {
      get: (target, property) =>
        property === "child"
          ? (...args: Parameters<typeof parent.child>) => {
              made++;
              return target.child(...args);
            }
          : Reflect.get(target, property),
    });
    const lazy = lazyChild(counting, { turnId: "t2" });

    lazy.debug({ hidden: true }, "off at info");
    lazy.child({ tool: "x" }).info({ shown: true }, "merged into the parent's line");
    expect(made).toBe(0);

    lazy.level = "debug";
    lazy.debug("now on");
    lazy.info("and through the same child");
    expect(made).toBe(1);
    expect(log.lines.map((line) => [line.msg, line.turnId])).toEqual([
      ["merged into the parent's line", "t2"],
      ["now on", "t2"],
      ["and through the same child", "t2"],
    ]);
  });
});
