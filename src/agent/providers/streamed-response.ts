import type { ModelStream, StreamSink } from "../model.js";

/**
 * A model stream over a streamed response whose events the provider reads itself (see
 * readServerSentEvents), rather than through its SDK's stream. `open` sends the request with the
 * call's own signal and resolves once a successful response's headers are in (the SDK's
 * `asResponse()`; an error status is the SDK's error, as for a whole answer). The call's abort ends
 * this call alone (a stall, see readStream); the turn's signal ends it too, until it has been read.
 */
export async function streamedResponse(
  signal: AbortSignal,
  open: (callSignal: AbortSignal) => Promise<Response>,
  read: (body: AsyncIterable<Uint8Array>, response: Response, sink: StreamSink) => Promise<void>,
): Promise<ModelStream> {
  const call = new AbortController();
  const abort = () => call.abort();
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  const release = () => signal.removeEventListener("abort", abort);
  let response: Response;
  try {
    response = await open(call.signal);
  } catch (error) {
    release();
    throw error;
  }
  // Async iterable either way: the keep-alive fetch's body is the incoming message, the global fetch's a ReadableStream.
  const body = response.body as AsyncIterable<Uint8Array> | null;
  return {
    read: (sink) => (body ? read(body, response, sink) : Promise.reject(new Error("the model's streamed response had no body"))).finally(release),
    abort,
  };
}
