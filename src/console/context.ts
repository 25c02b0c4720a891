import type { ConsoleServices } from "./services.js";
import type { Viewer } from "./viewer.js";

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

export class NotFound extends Error {}
export class Forbidden extends Error {}
