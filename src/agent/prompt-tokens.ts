import { createRequire } from "node:module";
import type { ModelMessage, ModelRequest, ToolSpec } from "./model.js";

/*
 * A request's prompt tokens, counted before the call so a budget can refuse it or cap its answer.
 * OpenAI's model families (gpt-4o, gpt-4.1, gpt-5, o1/o3/o4) are counted with their own tokenizer
 * (o200k_base, from gpt-tokenizer); any other model with a conservative estimate of one token per
 * three characters (English runs about four), since a budget must not be crossed by guessing low.
 * Each message is counted once: a turn's messages are the same objects on every call.
 */

const OPENAI_FAMILY = /^(?:openai:)?(?:gpt-4o|gpt-4\.1|gpt-5|chatgpt-4o|o[1345](?:-|$))/i;
/** Per message: its role and separators, as OpenAI counts them. */
const MESSAGE_OVERHEAD = 4;
/** An image, whatever its size: a high-detail 1024² image is about 1,100 tokens on gpt-4o, more on Claude. */
const IMAGE_TOKENS = 1_600;

type Counter = (text: string) => number;
const estimate: Counter = (text) => Math.ceil(text.length / 3);

let o200k: Counter | undefined;
/**
 * The tokenizer, loaded when a budget first counts with it, not at start: its merge tables are
 * about 21 MB of heap and 60 MB of resident memory, and most bots set no budget (or use a model it
 * does not count). Loading it takes a few hundred milliseconds, once per process.
 */
const countTokens: Counter = (text) => {
  o200k ??= (createRequire(import.meta.url)("gpt-tokenizer/encoding/o200k_base") as typeof import("gpt-tokenizer/encoding/o200k_base")).countTokens;
  return o200k(text);
};

/**
 * The tokenizer's byte-pair merges take time quadratic in the length of one pre-token, and a run
 * of one character is one pre-token: 200,000 blanks a model sent took 27 s of the main thread.
 * Counted in slices of this many characters, the worst case is a few milliseconds; a word cut at
 * a slice's edge counts a token more, which only errs on the side a budget wants.
 */
const SLICE_CHARS = 1_024;
const sliced: Counter = (text) => {
  if (text.length <= SLICE_CHARS) return countTokens(text);
  let tokens = 0;
  for (let start = 0; start < text.length; start += SLICE_CHARS) tokens += countTokens(text.slice(start, start + SLICE_CHARS));
  return tokens;
};
const counters = new Map<string, { count: Counter; messages: WeakMap<object, number> }>();

function counterFor(model: string): { count: Counter; messages: WeakMap<object, number> } {
  const family = OPENAI_FAMILY.test(model) ? "o200k" : "estimate";
  let counter = counters.get(family);
  if (!counter) counters.set(family, (counter = { count: family === "o200k" ? sliced : estimate, messages: new WeakMap() }));
  return counter;
}

export function promptTokens(request: ModelRequest, model: string): number {
  const counter = counterFor(model);
  let total = 3;
  for (const message of request.messages) {
    let tokens = counter.messages.get(message);
    if (tokens === undefined) {
      tokens = messageTokens(message, counter.count);
      counter.messages.set(message, tokens);
    }
    total += tokens;
  }
  if (request.tools && request.tools.length > 0) {
    let tokens = counter.messages.get(request.tools);
    if (tokens === undefined) {
      tokens = toolTokens(request.tools, counter.count);
      counter.messages.set(request.tools, tokens);
    }
    total += tokens;
  }
  return total;
}

function messageTokens(message: ModelMessage, count: Counter): number {
  let tokens = MESSAGE_OVERHEAD;
  if (typeof message.content === "string") tokens += count(message.content);
  else if (Array.isArray(message.content)) for (const part of message.content) tokens += part.type === "text" ? count(part.text) : IMAGE_TOKENS;
  if (message.role === "assistant") for (const call of message.toolCalls ?? []) tokens += count(call.name) + count(call.arguments) + MESSAGE_OVERHEAD;
  return tokens;
}

function toolTokens(tools: readonly ToolSpec[], count: Counter): number {
  let tokens = 0;
  for (const tool of tools) tokens += count(tool.name) + count(tool.description) + count(JSON.stringify(tool.jsonSchema)) + MESSAGE_OVERHEAD;
  return tokens;
}
