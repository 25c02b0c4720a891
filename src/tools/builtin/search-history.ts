import { z } from "zod";
import type { HistoryHit, HistoryIndex } from "../../store/history-index.js";
import { defineTool } from "../define-tool.js";

const RESULTS = 8;
const DAY_MS = 86_400_000;

/** A date as the model writes it (2026-03-01, or a full ISO time), as ms since the epoch; undefined when it is none. */
function timeOf(text: string | undefined, endOfDay: boolean): number | undefined {
  if (!text?.trim()) return undefined;
  const trimmed = text.trim();
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? `${trimmed}T00:00:00Z` : trimmed);
  if (Number.isNaN(time)) throw new Error(`"${trimmed}" is not a date; write it as YYYY-MM-DD`);
  // "to 2026-03-01" includes that day.
  return endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? time + DAY_MS : time;
}

function describe(hit: HistoryHit): string {
  const who = hit.kind === "answer" ? "the bot (answering)" : hit.authorName;
  const where = hit.threadId ? " in a thread" : "";
  return `- ${who}, ${new Date(hit.time).toISOString().slice(0, 16).replace("T", " ")} UTC${where}: ${hit.excerpt}${hit.link ? `\n  link: ${hit.link}` : ""}`;
}

/**
 * search_history: what was said in the current channel (every thread of it), as the bot stored it:
 * its exchanges, and every message where admins turned history on. The scope is the asker's
 * channel in their workspace, taken from the turn, never from the arguments: the model cannot
 * name another channel, another workspace or someone's direct messages.
 */
export function createSearchHistoryTool(index: HistoryIndex) {
  return defineTool({
    name: "search_history",
    example: "What did we say about the release here last week?",
    description:
      "Searches what was said earlier in this channel (all its threads): questions to the bot, its answers, and, where admins turned history on, every message. " +
      'Use it for questions about past discussion ("what did we decide about X", "who mentioned Y"). Returns author, time, an excerpt and a link for each match; ' +
      "cite the link of every message you use in your answer.",
    parameters: z.object({
      query: z.string().min(1).max(500).describe("Words to look for"),
      from: z.string().optional().describe("Only messages on or after this date (YYYY-MM-DD)"),
      to: z.string().optional().describe("Only messages on or before this date (YYYY-MM-DD)"),
      author: z.string().max(100).optional().describe("Only messages by this person (display name or part of it)"),
    }),
    run: async ({ query, from, to, author }, ctx) => {
      const { platform, workspaceId, channelId, parentChannelId } = ctx.request;
      const hits = await index.search({
        platform,
        workspaceId,
        channelId: parentChannelId ?? channelId,
        text: query,
        from: timeOf(from, false),
        to: timeOf(to, true),
        author,
        limit: RESULTS,
      });
      if (hits.length === 0) return `Nothing in this channel's history matches "${query}".`;
      return [`${hits.length} message(s) from this channel's history, best match first (cite their links):`, ...hits.map(describe)].join("\n");
    },
  });
}
