import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { HistoryEntry } from "../../src/store/history-store.js";
import type { Store } from "../../src/store/store.js";
import type { ConversationRef } from "../../src/store/types.js";
import { describeOnEngines } from "./engines.js";

/**
 * The history index on both engines (issue 24 §2-3): a channel's search finds its messages (any
 * language, diacritics aside), with author, time, excerpt and link, never another channel's or
 * workspace's; edits, deletions, forget-me, a channel's history turned off and retention remove
 * the text from the index and from the memory windows.
 */
await describeOnEngines(
  (engine) => `the ${engine.name} history index`,
  2,
  (it) => {
    const entry = (over: Partial<HistoryEntry> & { workspaceId: string; messageId: string; text: string }): HistoryEntry => ({
      platform: "slack",
      channelId: "C1",
      kind: "message",
      authorId: "U1",
      authorName: "Alice",
      time: Date.now(),
      link: `https://example.slack.com/archives/C1/p${over.messageId.replace(".", "")}`,
      ...over,
    });

    /** An answered turn in `ref`, indexed in `where` (its channel, and its thread: for a Discord thread, the parent and the thread). */
    async function exchange(store: Store, ref: ConversationRef, userId: string, questionId: string, question: string, answer: string, where?: ConversationRef) {
      const turnId = randomUUID();
      const conversation = await store.turns.start({ id: turnId, conversation: ref, userId, instance: "test" });
      await store.turns.finish({
        turnId,
        end: { status: "answered", outcome: "answer", iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } },
        steps: [{ seq: 1, tool: "calculator", input: { expression: question }, startedAt: Date.now(), output: "42", durationMs: 1 }],
        workspace: ref,
        exchange: { conversationId: conversation.id, question: { author: userId, text: question }, answer },
      });
      const { platform, workspaceId, channelId, threadId } = where ?? ref;
      const place = { platform, workspaceId, channelId, threadId };
      await store.history.add([
        entry({ ...place, messageId: questionId, kind: "question", turnId, authorId: userId, authorName: userId, text: question }),
        entry({ ...place, messageId: `${questionId}#answer`, kind: "answer", turnId, authorId: "bot", authorName: "bot", text: answer }),
      ]);
      return turnId;
    }

    it("finds a channel's messages with author, time, excerpt and link; any language; never another channel's or workspace's", async ({ a, b }) => {
      const ws = `w-${randomUUID()}`;
      const other = `w-${randomUUID()}`;
      const day = 86_400_000;
      const now = Date.now();
      await a.history.add([
        entry({ workspaceId: ws, messageId: "1.000100", text: "We decided to ship the release on Friday after the café meeting.", time: now - 3 * day }),
        entry({
          workspaceId: ws,
          messageId: "1.000200",
          text: "Привет, релиз откладывается до понедельника",
          authorId: "U2",
          authorName: "Борис",
          time: now - 2 * day,
        }),
        entry({
          workspaceId: ws,
          messageId: "1.000300",
          text: "The release notes live in docs/RELEASE.md",
          authorId: "U3",
          authorName: "Carol",
          threadId: "1.000100",
        }),
        entry({ workspaceId: ws, channelId: "C2", messageId: "1.000400", text: "A secret release plan in another channel" }),
        entry({ workspaceId: other, messageId: "1.000500", text: "Another workspace's release on Friday" }),
      ]);
      const search = (text: string, extra: object = {}) => b.history.search({ platform: "slack", workspaceId: ws, channelId: "C1", text, limit: 10, ...extra });

      const hits = await search("release friday");
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ authorName: "Alice", authorId: "U1", kind: "message", link: "https://example.slack.com/archives/C1/p1000100" });
      expect(hits[0]!.excerpt).toContain("**release** on **Friday**");
      expect(hits[0]!.time).toBe(now - 3 * day);
      // diacritics aside on SQLite; the same spelling on both
      expect((await search("café")).map((hit) => hit.authorName)).toEqual(["Alice"]);
      expect((await search("релиз")).map((hit) => hit.authorName)).toEqual(["Борис"]);
      // no message has every word: those with any of them, never the other channel's or workspace's
      const any = await search("release понедельника");
      expect(any.map((hit) => hit.authorName).sort()).toEqual(["Alice", "Carol", "Борис"]);
      expect((await search("secret plan")).length).toBe(0);
      // a thread's message is found from its channel, with its thread
      expect((await search("RELEASE.md"))[0]).toMatchObject({ authorName: "Carol", threadId: "1.000100" });
      // dates and author
      expect((await search("release", { from: now - 2.5 * day })).map((hit) => hit.authorName).sort()).toEqual(["Carol"]);
      expect((await search("release", { to: now - 2.5 * day })).map((hit) => hit.authorName)).toEqual(["Alice"]);
      expect((await search("release", { author: "carol" })).map((hit) => hit.authorName)).toEqual(["Carol"]);
      expect((await search("release", { author: "U1" })).map((hit) => hit.authorName)).toEqual(["Alice"]);
      // a query of operators and quotes is words, never syntax
      expect(await search('" OR * NEAR( ) :')).toEqual([]);
      expect((await search('release" OR "x')).length).toBeGreaterThan(0);
    });

    it("ranks the channel's newest matches: more of the words first, a rarer word over a common one, newest among equals", async ({ a, b }) => {
      const ws = `w-${randomUUID()}`;
      const now = Date.now();
      const said = (n: number, text: string) => entry({ workspaceId: ws, messageId: `3.00000${n}`, text, time: now + n });
      await a.history.add([
        said(1, "the deploy is late"),
        said(2, "deploy deploy deploy: the deploy plan for the rollback"),
        said(3, "lunch is at noon"),
        said(4, "the deploy rollback happened"),
        said(5, "the deploy is late again"),
        said(6, "the deploy went out"),
      ]);
      const search = (text: string) => b.history.search({ platform: "slack", workspaceId: ws, channelId: "C1", text, limit: 10 });
      // every word: the one saying it most first, then the shorter of two that say each once (newest among equals)
      expect((await search("deploy")).map((hit) => hit.excerpt.replace(/\*\*/g, ""))[0]).toBe("deploy deploy deploy: the deploy plan for the rollback");
      expect((await search("deploy late")).map((hit) => hit.excerpt.replace(/\*\*/g, ""))).toEqual(["the deploy is late", "the deploy is late again"]);
      // any word: rollback (2 of 6) weighs more than deploy (5 of 6)
      const any = (await search("rollback lunch")).map((hit) => hit.excerpt.replace(/\*\*/g, ""));
      expect(any).toHaveLength(3);
      expect(any[0]).toBe("lunch is at noon");
    });

    it("an edit replaces the indexed text; a deleted question takes its exchange out of the index and the memory window", async ({ shared, a, b }) => {
      const ws = `w-${randomUUID()}`;
      const ref = { platform: "discord", workspaceId: ws, channelId: "thread-1" };
      const where = { platform: "discord", workspaceId: ws, channelId: "parent", threadId: "thread-1" };
      const turnId = await exchange(a, ref, "U9", "900", "what is the launch code zebra", "the launch code is zebra-42", where);
      await exchange(a, ref, "U9", "901", "and the weather", "sunny", where);
      await a.history.add([entry({ ...where, platform: "discord", messageId: "902", text: "an ordinary remark about zebras" })]);
      const search = (text: string) => b.history.search({ platform: "discord", workspaceId: ws, channelId: "parent", text, limit: 10 });
      expect((await search("zebra")).map((hit) => hit.kind).sort()).toEqual(["answer", "question"]);

      expect(
        await b.history.edit({ platform: "discord", workspaceId: ws, channelId: "thread-1", messageIds: ["902"] }, "an edited remark about giraffes"),
      ).toBe(1);
      expect(await search("zebras")).toEqual([]);
      expect((await search("giraffes")).length).toBe(1);

      // the window holds both exchanges; the deletion (named by the thread, as Discord names it) removes the first
      expect((await a.conversations.window(ref, 5, 10_000)).map((m) => m.text)).toContain("what is the launch code zebra");
      expect(await b.history.forgetMessages({ platform: "discord", workspaceId: ws, channelId: "thread-1", messageIds: ["900"] })).toMatchObject({
        indexed: 2,
        exchanges: 1,
        staleSummaries: [],
      });
      expect(await search("zebra")).toEqual([]);
      for (const store of [a, b]) {
        const texts = (await store.conversations.window(ref, 5, 10_000)).map((m) => m.text);
        expect(texts).toEqual(["and the weather", "sunny"]);
      }
      const rows = await shared.rows(`SELECT input, output FROM turn_steps WHERE turn_id = '${turnId}'`);
      expect(rows).toEqual([{ input: "{}", output: null }]);
      const left = await shared.rows(`SELECT COUNT(*) AS n FROM messages WHERE turn_id = '${turnId}'`);
      expect(Number(left[0]!.n)).toBe(0);
    });

    it("forget-me removes a person's messages and exchanges in one workspace only; history off drops a channel's messages, not its exchanges", async ({
      a,
      b,
    }) => {
      const ws = `w-${randomUUID()}`;
      const other = `w-${randomUUID()}`;
      const ref = { platform: "slack", workspaceId: ws, channelId: "C1" };
      await exchange(a, ref, "U1", "5.000001", "remember my password hint tulip", "noted: tulip");
      await exchange(a, ref, "U2", "5.000002", "what is the plan", "the plan is tulip fields");
      await a.history.add([
        entry({ workspaceId: ws, messageId: "5.000003", text: "tulip bulbs arrive monday" }),
        entry({ workspaceId: ws, messageId: "5.000004", authorId: "U2", authorName: "Bob", text: "tulip order confirmed" }),
        entry({ workspaceId: other, messageId: "5.000005", text: "tulip in the other workspace" }),
      ]);
      const forgotten = await b.history.forgetAuthor({ platform: "slack", workspaceId: ws }, "U1");
      expect(forgotten.exchanges).toBe(1);
      const hits = await a.history.search({ ...ref, text: "tulip", limit: 10 });
      expect(hits.map((hit) => hit.authorId).sort()).toEqual(["U2", "bot"]);
      for (const store of [a, b]) {
        expect((await store.conversations.window(ref, 5, 10_000)).map((m) => m.text)).toEqual(["what is the plan", "the plan is tulip fields"]);
      }
      expect((await a.history.search({ ...ref, workspaceId: other, text: "tulip", limit: 10 })).length).toBe(1);

      expect(await a.history.dropChannel({ platform: "slack", workspaceId: ws, channelId: "C1" })).toBe(1);
      expect((await b.history.search({ ...ref, text: "tulip", limit: 10 })).map((hit) => hit.kind)).toEqual(["answer"]);
      expect((await b.history.search({ ...ref, text: "plan", limit: 10 })).map((hit) => hit.kind).sort()).toEqual(["answer", "question"]);
    });

    it("empties a summary that covered a forgotten exchange, in the same transaction; one that did not stays", async ({ a, b }) => {
      const ws = `w-${randomUUID()}`;
      const ref = { platform: "slack", workspaceId: ws, channelId: "C1" };
      for (let n = 1; n <= 4; n++) await exchange(a, ref, n === 2 ? "U2" : "U1", `6.00000${n}`, `question ${n} about otters`, `answer ${n}`);
      const conversation = await a.conversations.open(ref);
      // A summary covering the first two exchanges (the window keeps the other two).
      const covered = (await a.summaries.dropped(conversation, 0, 4, 100)).at(-1)!.id;
      const identifiers = [{ text: "#2", kind: "id" as const, by: "U2", source: "slack message 6.000002", at: 1 }];
      expect(await a.summaries.claim(conversation.id, 0, Date.now(), 60_000)).toBe(true);
      expect(
        await a.summaries.save(
          conversation.id,
          0,
          {
            summary: "U2 asked about otters",
            identifiers,
            coveredTo: covered,
            coversFrom: 1,
            coversUntil: 2,
            updatedAt: 3,
          },
          { conversationId: conversation.id, workspace: ref, channelId: "C1", model: "m", ok: true, promptTokens: 0, completionTokens: 0, durationMs: 1 },
        ),
      ).toBe(true);

      // A question in the window is not in the summary: it stays.
      const inWindow = await b.history.forgetMessages({ ...ref, messageIds: ["6.000004"] });
      expect(inWindow).toMatchObject({ exchanges: 1, staleSummaries: [] });
      expect((await a.summaries.get(conversation.id)).summary).toBe("U2 asked about otters");

      // forget-me of a person whose exchange it covered empties it: nothing of it is read until it is rebuilt.
      const forgotten = await b.history.forgetAuthor({ platform: "slack", workspaceId: ws }, "U2");
      expect(forgotten).toMatchObject({ exchanges: 1, staleSummaries: [conversation.id] });
      const emptied = await a.summaries.get(conversation.id);
      expect(emptied).toMatchObject({ version: 2, summary: "", identifiers: [], coveredTo: conversation.windowStart });
      // What is left to rebuild it from: every exchange still stored, the forgotten one not among them.
      expect((await a.summaries.dropped(conversation, emptied.coveredTo, 2, 100)).map((m) => m.text)).toEqual(["question 1 about otters", "answer 1"]);
      // A summary emptied already is not emptied again.
      expect((await b.history.forgetMessages({ ...ref, messageIds: ["6.000001"] })).staleSummaries).toEqual([]);
    });

    it("prunes index rows and exchanges older than the cutoff, in bounded rounds", async ({ a, b }) => {
      const ws = `w-${randomUUID()}`;
      const ref = { platform: "slack", workspaceId: ws, channelId: "C1" };
      const old = Date.now() - 100 * 86_400_000;
      await a.history.add([1, 2, 3].map((n) => entry({ workspaceId: ws, messageId: `7.00000${n}`, text: `ancient walrus ${n}`, time: old })));
      await a.history.add([entry({ workspaceId: ws, messageId: "7.000009", text: "recent walrus" })]);
      const cutoff = Date.now() - 90 * 86_400_000;
      const first = await b.history.prune(cutoff, 2);
      expect(first.indexed).toBe(2);
      let more = await b.history.prune(cutoff, 100);
      while (more.indexed > 0) more = await b.history.prune(cutoff, 100);
      expect((await a.history.search({ ...ref, text: "walrus", limit: 10 })).map((hit) => hit.excerpt)).toEqual(["recent **walrus**"]);
      // exchanges: those stored before the cutoff go from the windows
      await exchange(a, ref, "U1", "7.000010", "a fresh question", "a fresh answer");
      expect((await b.history.prune(Date.now() + 1, 100)).exchanges).toBeGreaterThanOrEqual(2);
      for (const store of [a, b]) expect(await store.conversations.window(ref, 5, 10_000)).toEqual([]);
    });
  },
);
