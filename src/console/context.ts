import type { ConsoleServices } from "./services.js";
import type { Viewer } from "./viewer.js";
import { BotError } from "../errors.js";

/** What a page handler gets: the request's query and form, who asks, and the services. */
export interface PageContext {
  url: URL;
  /** The posted form (empty for GET). */
  form: URLSearchParams;
  viewer: Viewer;
  /** The session's CSRF token, put in every form. */
  csrf: string;
  services: ConsoleServices;
  now: number;
}

export type PageResult =
  | { kind: "html"; status?: number; title: string; path: string; body: import("./html.js").Html }
  | { kind: "redirect"; location: string }
  | { kind: "data"; contentType: string; body: string; filename?: string };

export type PageHandler = (context: PageContext) => Promise<PageResult>;

export class NotFound extends BotError<"not_found"> {
  override readonly name = "NotFound";
  constructor(message: string) {
    super("not_found", message);
  }
}

export class Forbidden extends BotError<"forbidden"> {
  override readonly name = "Forbidden";
  constructor(message: string) {
    super("forbidden", message);
  }
}
