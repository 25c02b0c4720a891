import type { Model, ModelStream, StreamSink, Usage } from "./model.js";

/** One request to a model as metrics see it, reported once when it ends (each retry is a request of its own). */
export interface ModelCallInfo {
  /** The model as the catalog names it ("gpt-4o-mini", "anthropic:claude-sonnet-4-5"): one of the configured few. */
  model: string;
  ok: boolean;
  /** From sending the request to the whole answer, or the failure. */
  durationMs: number;
  /** Streamed calls that brought anything: from sending the request to the first text or tool call. */
  firstTokenMs?: number;
  /** As the provider reported it; absent when it did not (a failure, a stream cut off). */
  usage?: Usage;
}

export interface ModelCallObserver {
  modelCallFinished(info: ModelCallInfo): void;
}

/**
 * `model`, reporting each request's latency, time to first token and usage to `observer`. The
 * cost stays per call: a streamed answer's text and tool-call pieces go straight to the reader's
 * own handlers after the first (the wrapper replaces itself), so no work is added per chunk.
 */
export function observedModel(model: Model, ref: string, observer: ModelCallObserver): Model {
  const report = (started: number, ok: boolean, usage?: Usage, firstAt?: number) =>
    observer.modelCallFinished({
      model: ref,
      ok,
      durationMs: performance.now() - started,
      ...(firstAt === undefined ? {} : { firstTokenMs: firstAt - started }),
      ...(usage ? { usage } : {}),
    });
  return {
    classifyError: (error) => model.classifyError(error),
    async complete(request, signal) {
      const started = performance.now();
      try {
        const reply = await model.complete(request, signal);
        report(started, true, reply.usage);
        return reply;
      } catch (error) {
        report(started, false);
        throw error;
      }
    },
    async stream(request, signal) {
      const started = performance.now();
      let stream: ModelStream;
      try {
        stream = await model.stream(request, signal);
      } catch (error) {
        report(started, false);
        throw error;
      }
      return observedStream(stream, (ok, usage, firstAt) => report(started, ok, usage, firstAt));
    },
  };
}

function observedStream(stream: ModelStream, ended: (ok: boolean, usage: Usage | undefined, firstAt: number | undefined) => void): ModelStream {
  let aborted = false;
  return {
    abort() {
      aborted = true;
      stream.abort();
    },
    async read(sink) {
      let firstAt: number | undefined;
      let usage: Usage | undefined;
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
          toolCall(delta);
        },
        // Once or twice a stream (Anthropic reports the prompt's tokens first, the answer's at the end).
        usage: (reported) => {
          usage = usage ? sum(usage, reported) : { ...reported };
          sink.usage(reported);
        },
      };
      function firstSeen() {
        firstAt = performance.now();
        observed.text = text;
        observed.toolCall = toolCall;
      }
      try {
        await stream.read(observed);
      } catch (error) {
        ended(false, usage, firstAt);
        throw error;
      }
      ended(!aborted, usage, firstAt);
    },
  };
}

const sum = (a: Usage, b: Usage): Usage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});
