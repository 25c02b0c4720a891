import { describe, expect, it } from "vitest";
import { terminalSurface } from "../../../src/platforms/terminal/terminal-surface.js";
import { TypedApprovals } from "../../../src/platforms/terminal/typed-approvals.js";

function printedBy(states: { text: string; interim: boolean }[]): Promise<string> {
  let out = "";
  const surface = terminalSurface((text) => (out += text), new TypedApprovals());
  return (async () => {
    const [first, ...rest] = states;
    const message = await surface.post({ location: { channelId: "terminal" } }, first!.text, { kind: "answer", interim: first!.interim });
    for (const state of rest) await surface.edit(message, state.text, { kind: "answer", interim: state.interim });
    surface.endLine();
    return out;
  })();
}

describe("the terminal prints a streamed answer", () => {
  it("once, when the model broke off after a blank and the final text is trimmed with the reason", async () => {
    const out = await printedBy([
      { text: "The first half of an answer ", interim: true },
      { text: "The first half of an answer\n\n⚠️ The answer stopped here.", interim: false },
    ]);

    expect(out).toBe("bot: The first half of an answer\n\n⚠️ The answer stopped here.\n");
  });

  it("growing on one line as it arrives", async () => {
    const out = await printedBy([
      { text: "One ", interim: true },
      { text: "One two ", interim: true },
      { text: "One two three.", interim: false },
    ]);

    expect(out).toBe("bot: One two three.\n");
  });
});
