import type { CallTag, Model, ModelCallInfo, ModelCallObserver, ModelStream, StreamSink, ToolCallDelta, Usage } from "./model.js";

const UNTAGGED: CallTag = { purpose: "turn", retry: false };

/**
 * `model`, reporting each request's latency, time to first token, outcome and usage to `observer`
 * (the bot's metrics) and to the observer the request's own tag names (its turn's record): the one
 * place calls are measured. The cost stays per call: a streamed answer's text and tool-call pieces
 * go straight to the reader's own handlers after the first (the wrapper replaces itself), so no
 * work is added per chunk.
 */
export function observedModel(model: Model, ref: string, provider: string, observer: ModelCallObserver | undefined): Model {
  const report = (tag: CallTag, startedAt: number, started: number, outcome: string, usage?: Usage, firstAt?: number, calledTools?: boolean) => {
    const info: ModelCallInfo = {
      model: ref,
      provider,
      purpose: tag.purpose,
      retry: tag.retry,
      ok: outcome === "ok",
      outcome,
      startedAt,
      durationMs: performance.now() - started,
      ...(firstAt === undefined ? {} : { firstTokenMs: firstAt - started }),
      ...(usage ? { usage } : {}),
      ...(calledTools === undefined ? {} : { finishReason: calledTools ? "tool_calls" : "stop" }),
    };
    observer?.modelCallFinished(info);
    tag.observer?.modelCallFinished(info);
  };
  const failure = (error: unknown, signal: AbortSignal) => (signal.aborted ? "cancelled" : model.classifyError(error).failure);
  return {
    classifyError: (error) => model.classifyError(error),
    async complete(request, signal, tag = UNTAGGED) {
      const startedAt = Date.now();
      const started = performance.now();
      try {
        const reply = await model.complete(request, signal);
        report(tag, startedAt, started, "ok", reply.usage, undefined, reply.toolCalls.length > 0);
        return reply;
      } catch (error) {
        report(tag, startedAt, started, failure(error, signal));
        throw error;
      }
    },
    async stream(request, signal, tag = UNTAGGED) {
      const startedAt = Date.now();
      const started = performance.now();
      let stream: ModelStream;
      try {
        stream = await model.stream(request, signal);
      } catch (error) {
        report(tag, startedAt, started, failure(error, signal));
        throw error;
      }
      return observedStream(stream, (ok, usage, firstAt, calledTools) =>
        ok
          ? report(tag, startedAt, started, "ok", usage, firstAt, calledTools)
          : report(tag, startedAt, started, signal.aborted ? "cancelled" : "interrupted", usage, firstAt),
      );
    },
  };
}

function observedStream(
  stream: ModelStream,
  ended: (ok: boolean, usage: Usage | undefined, firstAt: number | undefined, calledTools: boolean) => void,
): ModelStream {
  let aborted = false;
  return {
    abort() {
      aborted = true;
      stream.abort();
    },
    async read(sink) {
      let firstAt: number | undefined;
      let usage: Usage | undefined;
      let calledTools = false;
      const text = sink.text.bind(sink);
      const toolCall = sink.toolCall.bind(sink);
      const observed: StreamSink = {
        received: sink.received.bind(sink),
        text: (delta) => {
          firstSeen();
          text(delta);
        },
        toolCall: (delta) => {
          firstSeen();
          toolCallNoted(delta);
        },
        // Once or twice a stream (Anthropic reports the prompt's tokens first, the answer's at the end).
        usage: (reported) => {
          usage = usage ? sum(usage, reported) : { ...reported };
          sink.usage(reported);
        },
      };
      // After the first piece, text goes straight through; a tool call is noted once, then goes straight through too.
      const toolCallNoted = (delta: ToolCallDelta) => {
        calledTools = true;
        observed.toolCall = toolCall;
        toolCall(delta);
      };
      function firstSeen() {
        firstAt = performance.now();
        observed.text = text;
        observed.toolCall = toolCallNoted;
      }
      try {
        await stream.read(observed);
      } catch (error) {
        ended(false, usage, firstAt, calledTools);
        throw error;
      }
      ended(!aborted, usage, firstAt, calledTools);
    },
  };
}

const sum = (a: Usage, b: Usage): Usage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});
