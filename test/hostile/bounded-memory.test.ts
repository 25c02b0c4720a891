import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log.js";
import { TurnAdmission } from "../../src/runner/admission.js";
import { SlackApi } from "../../src/platforms/slack/slack-api.js";
import { SlackUsers } from "../../src/platforms/slack/slack-users.js";
import { request } from "../support/test-app.js";

const USERS = 100_000;

describe("what a crowd of users leaves in memory", () => {
  it("refusal notices are forgotten once their minute is over (the rate limit itself is counted in the database)", async () => {
    let now = 1_000_000;
    const admission = new TurnAdmission({ ratePerUserPerMinute: 6, maxQuestionChars: 4_000, maxQueuedTurns: 5 }, () => now);
    const check = (userId: string) =>
      admission.check({
        request: request("hi", { userId }),
        settings: {},
        budgetReached: async () => undefined,
        ignoredElsewhere: async () => false,
        takePlace: async () => ({ refused: "rate_limited" as const }),
      });
    for (let i = 0; i < USERS; i++) expect(await check(`u${i}`)).toMatchObject({ admitted: false, outcome: "rate_limited", text: expect.any(String) });
    expect(admission.trackedEntries).toBe(USERS);
    now += 61_000;
    await check("latecomer");
    expect(admission.trackedEntries).toBe(1);
  });

  it("the Slack admin-status cache holds at most 10,000 people", async () => {
    // The real SlackApi over a Web API client that answers every users.info at once.
    const client = { users: { info: async ({ user }: { user: string }) => ({ ok: true, user: { id: user, name: user } }) } };
    const users = new SlackUsers(new SlackApi(client as never, silentLogger()), new Set());
    for (let i = 0; i < USERS; i++) await users.lookup(`U${i}`);
    expect(users.size).toBeLessThanOrEqual(10_000);
    expect((await users.lookup(`U${USERS - 1}`)).name).toBe(`U${USERS - 1}`);
  });
});
