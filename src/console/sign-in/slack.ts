import { z } from "zod";
import { fetchJson, SignInError, type SignInProvider } from "./provider.js";

export interface SlackSignInSettings {
  clientId: string;
  clientSecret: string;
  /** https://slack.com, or a test's fake. */
  baseUrl: string;
}

const tokenSchema = z.object({ ok: z.boolean(), access_token: z.string().optional(), error: z.string().optional() });
const userSchema = z.object({
  ok: z.boolean(),
  sub: z.string().optional(),
  name: z.string().optional(),
  "https://slack.com/team_id": z.string().optional(),
  "https://slack.com/enterprise_id": z.string().optional(),
  error: z.string().optional(),
});

/** Sign in with Slack: OpenID Connect (scopes openid and profile); the person's workspace, and on Enterprise Grid its organisation. */
export function slackSignIn(settings: SlackSignInSettings): SignInProvider {
  const base = settings.baseUrl.replace(/\/+$/, "");
  return {
    name: "slack",
    label: "Sign in with Slack",
    authorizeUrl: (state, redirectUri) =>
      `${base}/openid/connect/authorize?${new URLSearchParams({
        response_type: "code",
        scope: "openid profile",
        client_id: settings.clientId,
        state,
        nonce: state,
        redirect_uri: redirectUri,
      })}`,
    async identify(code, redirectUri) {
      const token = await fetchJson(
        `${base}/api/openid.connect.token`,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ client_id: settings.clientId, client_secret: settings.clientSecret, code, redirect_uri: redirectUri }),
        },
        tokenSchema,
        "Slack's token endpoint",
      );
      if (!token.ok || !token.access_token) throw new SignInError(`Slack's token endpoint: ${token.error ?? "no token"}`);
      const user = await fetchJson(
        `${base}/api/openid.connect.userInfo`,
        { headers: { authorization: `Bearer ${token.access_token}` } },
        userSchema,
        "Slack's userInfo",
      );
      const team = user["https://slack.com/team_id"];
      if (!user.ok || !user.sub || !team) throw new SignInError(`Slack's userInfo: ${user.error ?? "no user or workspace"}`);
      const enterprise = user["https://slack.com/enterprise_id"];
      return { platform: "slack", userId: user.sub, name: user.name, workspaceIds: enterprise ? [team, enterprise] : [team] };
    },
  };
}
