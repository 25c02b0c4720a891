import { z } from "zod";
import { fetchJson, type SignInProvider } from "./provider.js";

export interface DiscordSignInSettings {
  clientId: string;
  clientSecret: string;
  /** https://discord.com, or a test's fake. */
  baseUrl: string;
}

const tokenSchema = z.object({ access_token: z.string().min(1), token_type: z.string() });
const userSchema = z.object({ id: z.string().min(1), username: z.string().optional(), global_name: z.string().nullish() });
/** Discord lists at most 200 guilds a page; the first page is enough for the servers anyone administers with a bot in them. */
const guildsSchema = z.array(z.object({ id: z.string().min(1) })).max(1_000);

/** Sign in with Discord: the OAuth2 code flow with the scopes identify and guilds. */
export function discordSignIn(settings: DiscordSignInSettings): SignInProvider {
  const base = settings.baseUrl.replace(/\/+$/, "");
  return {
    name: "discord",
    label: "Sign in with Discord",
    authorizeUrl: (state, redirectUri) =>
      `${base}/oauth2/authorize?${new URLSearchParams({
        response_type: "code",
        client_id: settings.clientId,
        scope: "identify guilds",
        state,
        redirect_uri: redirectUri,
        prompt: "none",
      })}`,
    async identify(code, redirectUri) {
      const token = await fetchJson(
        `${base}/api/oauth2/token`,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code,
            redirect_uri: redirectUri,
            client_id: settings.clientId,
            client_secret: settings.clientSecret,
          }),
        },
        tokenSchema,
        "Discord's token endpoint",
      );
      const headers = { authorization: `Bearer ${token.access_token}` };
      const [user, guilds] = await Promise.all([
        fetchJson(`${base}/api/users/@me`, { headers }, userSchema, "Discord's user endpoint"),
        fetchJson(`${base}/api/users/@me/guilds`, { headers }, guildsSchema, "Discord's guild list"),
      ]);
      return { platform: "discord", userId: user.id, name: user.global_name ?? user.username, workspaceIds: guilds.map((guild) => guild.id) };
    },
  };
}
