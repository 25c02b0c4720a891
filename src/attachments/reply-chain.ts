import type { Logger } from "../log.js";
import type { QuotedMessage } from "../contract/inbound.js";
import type { SharedContent } from "../contract/inbound.js";
import { untilAborted } from "../signals.js";

/**
 * The messages a question replies to, the replied-to message first, at most `max`: what the
 * platform sent along, then earlier links fetched from it one by one while `signal` allows. A link
 * that cannot be fetched ends the chain; the question is answered with what was found.
 */
export async function followReplyChain(shared: SharedContent, max: number, signal: AbortSignal, logger: Logger): Promise<QuotedMessage[]> {
  const chain: QuotedMessage[] = [];
  const seen = new Set<string>();
  let next = shared.replyTo;
  let nextId = next ? undefined : shared.repliesTo;
  while (chain.length < max) {
    if (!next && nextId && !seen.has(nextId)) next = await fetchLink(shared, nextId, signal, logger);
    if (!next) break;
    chain.push(next);
    if (next.messageId) seen.add(next.messageId);
    nextId = next.repliesTo;
    next = undefined;
  }
  return chain;
}

async function fetchLink(shared: SharedContent, messageId: string, signal: AbortSignal, logger: Logger): Promise<QuotedMessage | undefined> {
  const fetchMessage = shared.source?.fetchMessage;
  if (!fetchMessage || signal.aborted) return undefined;
  try {
    return await untilAborted(fetchMessage(shared.location, messageId, signal), signal);
  } catch (error) {
    logger.debug({ err: error, messageId }, "could not fetch a message of a reply chain");
    return undefined;
  }
}
