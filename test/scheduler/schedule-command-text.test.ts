import { describe, expect, it } from "vitest";
import { parseCommandText } from "../../src/runner/commands/command-text.js";
import { commandHelp } from "../../src/runner/commands/help.js";

/** The text form of the schedule commands (the terminal, Slack): `/schedule add WHEN | TASK`. */
describe("the schedule commands typed as text", () => {
  it("reads WHEN and TASK on either side of the bar, and ids", () => {
    expect(parseCommandText("/schedule add every weekday at 9 | Post the new arXiv papers on retrieval")).toEqual({
      kind: "schedule_add",
      when: "every weekday at 9",
      task: "Post the new arXiv papers on retrieval",
    });
    expect(parseCommandText("schedule add 0 9 * * 1-5 | a | b")).toEqual({ kind: "schedule_add", when: "0 9 * * 1-5", task: "a | b" });
    expect(parseCommandText("/schedule add in 30 seconds")).toBeUndefined();
    expect(parseCommandText("/schedule add | no time")).toBeUndefined();
    expect(parseCommandText("/schedule pause 1a2b3c4d")).toEqual({ kind: "schedule_task", action: "pause", id: "1a2b3c4d" });
    expect(parseCommandText("/schedule")).toEqual({ kind: "schedule_list" });
    expect(parseCommandText("/settings timezone Europe/Paris")).toEqual({ kind: "settings_timezone", zone: "Europe/Paris" });
    expect(parseCommandText("/settings timezone default")).toEqual({ kind: "settings_timezone", zone: null });
    expect(parseCommandText("/settings schedules members")).toEqual({ kind: "settings_schedules", members: true });
  });

  it("shows the bar in the help", () => {
    const help = commandHelp({ commandName: (group) => `/${group}`, roles: false });
    expect(help).toContain("`/schedule add WHEN | TASK`");
    expect(help).toContain("`/schedule history ID`");
    expect(help).toContain("`/settings prompt [TEXT]`");
  });
});
