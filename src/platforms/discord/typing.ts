import type { Logger } from "../../log.js";
import { describeDiscordError } from "./errors.js";

/** Discord shows "is typing…" for about 10 seconds per request. */
const TYPING_REFRESH_MS = 8_000;

export interface Typable {
  sendTyping(): Promise<void>;
}

/** Shows the typing indicator until the returned function is called. Failures only go to the debug log. */
export function keepTyping(channel: Typable, logger: Logger, refreshMs = TYPING_REFRESH_MS): () => void {
  const send = () => void channel.sendTyping().catch((error) => logger.debug({ err: describeDiscordError(error) }, "could not show the typing indicator"));
  send();
  const timer = setInterval(send, refreshMs);
  timer.unref();
  return () => clearInterval(timer);
}
