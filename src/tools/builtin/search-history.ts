import { z } from "zod";
import type { ChannelRefusal } from "../../contract/channel-access.js";
import type { HistoryHit, HistoryStore } from "../../store/history-store.js";
import { defineTool, type ToolRequestInfo } from "../define-tool.js";

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

/** What the model is told when the channel it named cannot be searched for this person. */
const REFUSED: Record<ChannelRefusal | "here-only", string> = {
  "not-found": "There is no such channel in this workspace that I can see. Name it by its channel mention.",
  "no-access": "The person asking cannot read that channel, so I will not search it for them.",
  "direct-messages": "Direct conversations other than this one are never searched.",
  unavailable: "I could not check whether the person asking may read that channel; try again later.",
  "here-only": "Only this channel's history can be searched here.",
};

type Scope = { channelId: string; label: string } | { refused: string };

/**
 * The channel a search looks in: the one asked in, or the one the model named if the asker may
 * read it, as their platform says. The workspace is always the asker's: the check names a
 * channel of it, and the search never takes a workspace from anywhere else.
 */
async function scopeOf(request: ToolRequestInfo, channel: string | undefined): Promise<Scope> {
  const here = request.parentChannelId ?? request.channelId;
  if (!channel?.trim()) return { channelId: here, label: "this channel" };
  if (!request.readChannel) return { refused: REFUSED["here-only"] };
  const answer = await request.readChannel(channel.trim());
  if (!answer.readable) return { refused: REFUSED[answer.reason] };
  return answer.channelId === here ? { channelId: here, label: "this channel" } : { channelId: answer.channelId, label: answer.name };
}

/**
 * search_history: what was said in the current channel (every thread of it), as the bot stored it:
 * its exchanges, and every message where admins turned history on. The scope is the asker's
 * channel in their workspace, taken from the turn; `channel` names another channel of that
 * workspace, searched only if the asker may read it (their platform's answer, refused in code
 * otherwise). Never another workspace, never someone else's direct messages.
 */
export function createSearchHistoryTool(index: HistoryStore, caughtUp?: () => Promise<void>) {
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
      channel: z
        .string()
        .max(100)
        .optional()
        .describe(
          "Another channel of this workspace to search instead: its channel mention as written in messages (or #name); only if the person asking may read it",
        ),
    }),
    run: async ({ query, from, to, author, channel }, ctx) => {
      const { platform, workspaceId } = ctx.request;
      const scope = await scopeOf(ctx.request, channel);
      if ("refused" in scope) return scope.refused;
      // What this process queued for the index (the exchange of a turn that just ended) is there first.
      await caughtUp?.();
      const hits = await index.search({
        platform,
        workspaceId,
        channelId: scope.channelId,
        text: query,
        from: timeOf(from, false),
        to: timeOf(to, true),
        author,
        limit: RESULTS,
      });
      if (hits.length === 0) return `Nothing in ${scope.label}'s history matches "${query}".`;
      return [`${hits.length} message(s) from ${scope.label}'s history, best match first (cite their links):`, ...hits.map(describe)].join("\n");
    },
  });
}
