import { randomUUID } from "node:crypto";
import { answer, FakeHttpServer, type Answer, type ServedRequest } from "./fake-http-server.js";

/** Who the next sign-in is, as the platform would say: Discord's user and guild list, or Slack's user and team. */
export interface FakeIdentity {
  userId: string;
  name: string;
  /** Discord: the guilds the user is in (what the guilds scope lists). Slack: one, the user's team. */
  workspaceIds: string[];
}

export const OAUTH_CLIENT = { id: "console-client", secret: "console-client-secret" };

const json = (body: unknown, status = 200) => answer.text(status, JSON.stringify(body), "application/json");

/**
 * Discord's OAuth2 and Slack's OpenID Connect on 127.0.0.1: the authorize page consents at once
 * (it sends the browser back with a code for `next`), the token endpoint checks the client and the
 * code, and the user endpoints answer for the token's person.
 */
export class FakeOAuth {
  next?: FakeIdentity;
  private readonly codes = new Map<string, { identity: FakeIdentity; redirectUri: string }>();
  private readonly tokens = new Map<string, FakeIdentity>();

  private constructor(readonly http: FakeHttpServer) {
    http.route = (request) => this.answer(request);
  }

  static async start(): Promise<FakeOAuth> {
    return new FakeOAuth(await FakeHttpServer.start());
  }

  get url(): string {
    return this.http.origin;
  }

  private answer(request: ServedRequest): Answer {
    const path = request.url.pathname;
    if (path === "/oauth2/authorize" || path === "/openid/connect/authorize") return this.authorize(request);
    if (path === "/api/oauth2/token" || path === "/api/openid.connect.token") return this.token(request, path.includes("openid"));
    const person = this.tokens.get((request.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!person) return json({ ok: false, error: "invalid_auth", message: "401: Unauthorized" }, 401);
    if (path === "/api/users/@me") return json({ id: person.userId, username: person.name, global_name: person.name });
    if (path === "/api/users/@me/guilds") return json(person.workspaceIds.map((id) => ({ id, name: `guild ${id}` })));
    if (path === "/api/openid.connect.userInfo")
      return json({ ok: true, sub: person.userId, name: person.name, "https://slack.com/team_id": person.workspaceIds[0] });
    return json({ error: "no such route" }, 404);
  }

  private authorize(request: ServedRequest): Answer {
    const params = request.url.searchParams;
    if (params.get("client_id") !== OAUTH_CLIENT.id || !this.next) return answer.text(400, "unknown client or nobody to sign in");
    const code = randomUUID();
    const redirectUri = params.get("redirect_uri") ?? "";
    this.codes.set(code, { identity: this.next, redirectUri });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", params.get("state") ?? "");
    return answer.text(302, "", "text/plain", { location: back.toString() });
  }

  private token(request: ServedRequest, slack: boolean): Answer {
    const form = new URLSearchParams(request.body);
    const issued = this.codes.get(form.get("code") ?? "");
    if (
      form.get("client_id") !== OAUTH_CLIENT.id ||
      form.get("client_secret") !== OAUTH_CLIENT.secret ||
      !issued ||
      issued.redirectUri !== form.get("redirect_uri")
    ) {
      return json({ ok: false, error: "invalid_grant" }, slack ? 200 : 400);
    }
    this.codes.delete(form.get("code")!);
    const token = randomUUID();
    this.tokens.set(token, issued.identity);
    return json(
      slack
        ? { ok: true, access_token: token, token_type: "Bearer", id_token: "unused" }
        : { access_token: token, token_type: "Bearer", scope: "identify guilds" },
    );
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
