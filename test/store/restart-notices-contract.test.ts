import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { expect } from "vitest";
import type { InstanceRun, QueueTicket, Store } from "../../src/store/store.js";
import type { NoticeTarget } from "../../src/store/turn-records.js";
import type { ConversationRef } from "../../src/store/types.js";
import { describeOnEngines } from "./engines.js";

/**
 * A process that dies while it posts an answer (committed as answered, its place still held) or
 * while a turn runs: the survivor that reaps it takes the unshown exchange back out of memory, marks
 * both turns interrupted, and leaves one restart notice per asker, which one process takes.
 */
const LONG = 60_000;

const run = (name: string): InstanceRun => ({ id: `${name}:${randomUUID().slice(0, 8)}`, name, host: hostname(), pid: process.pid });
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const target = (messageId: string): NoticeTarget => ({ location: { channelId: "C1" }, messageId, askerId: "U1" });

await describeOnEngines(
  (engine) => `restart notices and unshown answers on ${engine.name}`,
  2,
  (it) => {
    /** A turn of `owner` in its own conversation, with its place; answered (not yet released) when `answered`. */
    async function turnOf(
      store: Store,
      owner: InstanceRun,
      question: string,
      answered: boolean,
      withNotice = true,
    ): Promise<{ ref: ConversationRef; ticket: QueueTicket; id: string }> {
      const ref: ConversationRef = { platform: "test", workspaceId: `w-${randomUUID()}`, channelId: "C1" };
      const entered = await store.queue.claim({ conversation: ref, instance: owner.id, order: "1", addressed: true });
      if (!("placed" in entered)) throw new Error("skipped");
      const id = `turn-${randomUUID()}`;
      const conversation = await store.turns.start({
        id,
        conversation: ref,
        userId: "U1",
        instance: owner.id,
        place: entered.placed.id,
        noticeTo: withNotice ? target(question) : undefined,
      });
      if (answered) {
        await store.turns.finish({
          turnId: id,
          end: { status: "answered", outcome: "answer", iterations: 1, usage },
          steps: [],
          workspace: ref,
          exchange: { conversationId: conversation.id, question: { author: "alice", text: question }, answer: `answer to ${question}` },
        });
      }
      return { ref, ticket: entered.placed, id };
    }

    it("takes a dead process's unshown answer out of memory, marks its turns interrupted, and leaves a notice per asker", async ({ shared, a, b }) => {
      const live = run("live");
      const crashed = run("crashed");
      await a.instances.register(live);
      await b.instances.register(crashed);
      // shown: its place was given up after the post
      const shown = await turnOf(b, crashed, "shown", true);
      await b.queue.leave(shown.ticket);
      const unshown = await turnOf(b, crashed, "unshown", true);
      const running = await turnOf(b, crashed, "running", false);
      const quiet = await turnOf(b, crashed, "from the terminal", false, false);

      expect(await a.instances.reap({ leaseMs: LONG, dead: [crashed.id] })).toEqual({ runs: 1, turns: 3 });
      expect(await a.conversations.window(unshown.ref, 10, 10_000)).toEqual([]);
      expect((await a.conversations.window(shown.ref, 10, 10_000)).map((message) => message.text)).toEqual(["shown", "answer to shown"]);
      const statuses = await shared.rows(`SELECT id, status, error FROM turns WHERE instance = '${crashed.id}' ORDER BY id`);
      expect(Object.fromEntries(statuses.map((row) => [row.id, [row.status, row.error]]))).toEqual({
        [shown.id]: ["answered", null],
        [unshown.id]: ["interrupted", "the bot stopped before this turn's answer was shown"],
        [running.id]: ["interrupted", "the bot stopped before this turn finished"],
        [quiet.id]: ["interrupted", "the bot stopped before this turn finished"],
      });
      expect(await shared.rows(`SELECT id FROM turn_queue WHERE instance = '${crashed.id}'`)).toEqual([]);

      // one process takes each notice; a platform nobody here is connected to keeps its own
      expect(await a.instances.takeRestartNotices(["other"], 10)).toEqual([]);
      const [taken, none] = await Promise.all([a.instances.takeRestartNotices(["test"], 10), b.instances.takeRestartNotices(["test"], 10)]);
      const all = [...taken, ...none];
      expect(all.map((notice) => notice.target.messageId).sort()).toEqual(["running", "unshown"]);
      expect(all[0]).toMatchObject({ platform: "test", target: { location: { channelId: "C1" }, askerId: "U1" } });
      expect(await a.instances.takeRestartNotices(["test"], 10)).toEqual([]);
      // a second reap finds nothing more to do
      expect(await b.instances.reap({ leaseMs: LONG, dead: [crashed.id] })).toEqual({ runs: 0, turns: 0 });
      expect(await a.instances.takeRestartNotices(["test"], 10)).toEqual([]);
    });

    it("leaves a live process's answer being posted alone", async ({ a, b }) => {
      const live = run("posting");
      await a.instances.register(live);
      const posting = await turnOf(b, live, "being posted", true);
      await b.instances.reap({ leaseMs: LONG });
      expect((await a.conversations.window(posting.ref, 10, 10_000)).map((message) => message.text)).toEqual(["being posted", "answer to being posted"]);
      expect(await a.instances.takeRestartNotices(["test"], 10)).toEqual([]);
    });
  },
);
