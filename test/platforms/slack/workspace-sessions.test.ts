import { describe, expect, it } from "vitest";
import { type WorkspaceSession, WorkspaceSessions } from "../../../src/platforms/slack/workspace-sessions.js";

/** A session that only says which token it was made with. */
const made: string[] = [];
const build = (token: string) => {
  made.push(token);
  return { token } as unknown as WorkspaceSession;
};

describe("Slack's sessions per installation", () => {
  it("keeps one session per installation, makes a new one when its token changed, and forgets a dropped one", () => {
    made.length = 0;
    const sessions = new WorkspaceSessions(build);
    const a = sessions.get("team:TA", "xoxb-a");
    expect(sessions.get("team:TA", "xoxb-a")).toBe(a);
    expect(sessions.get("team:TB", "xoxb-b")).not.toBe(a);
    // A refreshed token: nothing made with the old one is used again.
    const refreshed = sessions.get("team:TA", "xoxb-a2");
    expect(refreshed).not.toBe(a);
    expect(made).toEqual(["xoxb-a", "xoxb-b", "xoxb-a2"]);
    sessions.drop("team:TA");
    expect(sessions.size).toBe(1);
    expect(sessions.get("team:TA", "xoxb-a2")).not.toBe(refreshed);
  });

  it("holds at most a thousand sessions, forgetting the least recently used first", () => {
    const sessions = new WorkspaceSessions(build);
    const first = sessions.get("team:T0", "xoxb-0");
    for (let i = 1; i <= 1_000; i++) {
      sessions.get(`team:T${i}`, `xoxb-${i}`);
      // T0 is in use all along: it stays.
      if (i % 100 === 0) expect(sessions.get("team:T0", "xoxb-0")).toBe(first);
    }
    expect(sessions.size).toBe(1_000);
    expect(sessions.get("team:T0", "xoxb-0")).toBe(first);
  });
});
