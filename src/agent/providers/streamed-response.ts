import type { ModelStream, StreamSink } from "../model.js";
import { callAbort } from "./call-abort.js";

/**
 * A model stream over a streamed response whose events the provider reads itself (see
 * readServerSentEvents), rather than through its SDK's stream. `open` sends the request under the
 * call's controller (see callAbort) and resolves once a successful response's headers are in; an
 * error status is the SDK's error, as for a whole answer. The stream's abort (a stall, see
 * readStream) ends this call alone; the turn's signal ends it too, until it has been read.
 */
export async function streamedResponse(
  signal: AbortSignal,
  open: (call: AbortController) => Promise<Response>,
  read: (body: AsyncIterable<Uint8Array>, response: Response, sink: StreamSink) => Promise<void>,
): Promise<ModelStream> {
  const call = callAbort(signal);
  let response: Response;
  try {
    response = await open(call.controller);
  } catch (error) {
    call.release();
    throw error;
  }
  // Async iterable either way: the keep-alive fetch's body is the incoming message, the global fetch's a ReadableStream.
  const body = response.body as AsyncIterable<Uint8Array> | null;
  return {
    read: (sink) => (body ? read(body, response, sink) : Promise.reject(new Error("the model's streamed response had no body"))).finally(call.release),
    abort: () => call.controller.abort(),
  };
}
