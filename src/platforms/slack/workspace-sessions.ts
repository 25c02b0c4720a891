import type { Actor, Role } from "../../contract/inbound.js";
import type { PlatformLink } from "../../contract/link.js";
import type { SlackPlace } from "./inbound.js";
import type { SlackApi } from "./slack-api.js";

/**
 * Everything the adapter holds for one installation: a Web API client with that workspace's
 * token, its users cache, and its own link to the core (whose surface, with what it learnt of
 * the channels, streaming and the thread status, is that workspace's alone).
 */
export interface WorkspaceSession {
  api: SlackApi;
  link: PlatformLink;
  /** The person as an actor where the request came from (an admin in one place may be a member in another). */
  actorOf(userId: string, place: SlackPlace): Promise<Actor>;
  /** The person's role in a place, undefined when they are not one of its people (the console's sign-in). */
  roleIn(userId: string, place: SlackPlace): Promise<Role | undefined>;
}

/** What Bolt's authorize put in a request's context. */
export interface SlackContext {
  botToken?: string;
  teamId?: string;
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
}

/** Sessions held at most; the least recently used goes first (a new one is made when it comes back). */
const MAX_SESSIONS = 1_000;

/**
 * Distribution mode: one session per installation, made on the first request Bolt authorized with
 * its token, and made anew when the token changed (a refreshed rotating token, a reinstall), so a
 * workspace's calls never carry another's token and nothing cached crosses between workspaces.
 */
export class WorkspaceSessions {
  private readonly sessions = new Map<string, { token: string; session: WorkspaceSession }>();

  constructor(private readonly build: (token: string) => WorkspaceSession) {}

  get(key: string, token: string): WorkspaceSession {
    const held = this.sessions.get(key);
    this.sessions.delete(key);
    const entry = held?.token === token ? held : { token, session: this.build(token) };
    this.sessions.set(key, entry);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return entry.session;
  }

  /** Forgets an uninstalled workspace's session (its token is revoked). */
  drop(key: string): void {
    this.sessions.delete(key);
  }

  get size(): number {
    return this.sessions.size;
  }
}
