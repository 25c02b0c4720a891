import { randomUUID } from "node:crypto";

/** A workspace (or, org-wide, an Enterprise Grid organisation) that installs the app through OAuth. */
export interface FakeWorkspace {
  teamId?: string;
  enterpriseId?: string;
  /** An org-wide install: the organisation's, for every workspace of it. */
  isEnterpriseInstall?: boolean;
  botUserId?: string;
  botId?: string;
  /** Token rotation on: tokens expire this many seconds after they are issued, with a refresh token. */
  tokenLifetimeSeconds?: number;
}

/** Who a bot token belongs to (auth.test's answer). */
export interface TokenOwner {
  teamId?: string;
  enterpriseId?: string;
  isEnterpriseInstall: boolean;
  botUserId: string;
  botId: string;
}

/**
 * Slack's side of "Add to Slack": codes granted when someone approves the install, the tokens
 * oauth.v2.access exchanges them for (and, with token rotation, the refresh tokens and their
 * successors), and which workspace each token belongs to.
 */
export class FakeInstalls {
  private readonly codes = new Map<string, FakeWorkspace>();
  private readonly refreshTokens = new Map<string, FakeWorkspace>();
  /** Every bot token issued and not revoked, with its owner. */
  readonly tokens = new Map<string, TokenOwner & { expiresAt?: number }>();
  /** Exchanges that went through, in order: "code" or "refresh". */
  readonly exchanges: ("code" | "refresh")[] = [];

  constructor(private readonly client: { id: string; secret: string }) {}

  /** Someone approved the install on slack.com: the code Slack's redirect then carries. */
  grantCode(workspace: FakeWorkspace): string {
    const code = `code-${randomUUID()}`;
    this.codes.set(code, workspace);
    return code;
  }

  /** The owner of a valid bot token; undefined for an unknown, revoked or expired one. */
  ownerOf(token: string | undefined): TokenOwner | undefined {
    const owner = token === undefined ? undefined : this.tokens.get(token);
    if (!owner || (owner.expiresAt !== undefined && owner.expiresAt <= Date.now())) return undefined;
    return owner;
  }

  /** The app was uninstalled: its tokens in that workspace stop working. */
  revoke(where: { teamId?: string; enterpriseId?: string }): void {
    for (const [token, owner] of this.tokens) {
      if ((where.teamId && owner.teamId === where.teamId) || (where.enterpriseId && owner.isEnterpriseInstall && owner.enterpriseId === where.enterpriseId)) {
        this.tokens.delete(token);
      }
    }
  }

  /** oauth.v2.access: a code for the first tokens, or (grant_type=refresh_token) a refresh token for new ones. */
  exchange(params: Record<string, any>): Record<string, any> {
    if (params.client_id !== this.client.id || params.client_secret !== this.client.secret) return { ok: false, error: "invalid_client_id" };
    if (params.grant_type === "refresh_token") {
      const workspace = this.refreshTokens.get(String(params.refresh_token));
      if (!workspace) return { ok: false, error: "invalid_refresh_token" };
      this.refreshTokens.delete(String(params.refresh_token));
      this.exchanges.push("refresh");
      return this.issue(workspace);
    }
    const workspace = this.codes.get(String(params.code));
    if (!workspace) return { ok: false, error: "invalid_code" };
    this.codes.delete(String(params.code));
    this.exchanges.push("code");
    return this.issue(workspace);
  }

  private issue(workspace: FakeWorkspace): Record<string, any> {
    const rotating = workspace.tokenLifetimeSeconds !== undefined;
    const token = `${rotating ? "xoxe.xoxb" : "xoxb"}-${workspace.teamId ?? workspace.enterpriseId}-${randomUUID().slice(0, 8)}`;
    const owner: TokenOwner = {
      teamId: workspace.isEnterpriseInstall ? undefined : workspace.teamId,
      enterpriseId: workspace.enterpriseId,
      isEnterpriseInstall: workspace.isEnterpriseInstall === true,
      botUserId: workspace.botUserId ?? "UBOT",
      botId: workspace.botId ?? "BBOT",
    };
    this.tokens.set(token, { ...owner, ...(rotating ? { expiresAt: Date.now() + workspace.tokenLifetimeSeconds! * 1000 } : {}) });
    const refresh = rotating ? `xoxe-1-${randomUUID()}` : undefined;
    if (refresh) this.refreshTokens.set(refresh, workspace);
    return {
      ok: true,
      app_id: "A1",
      authed_user: { id: "UINSTALLER" },
      scope: "app_mentions:read,chat:write,commands",
      token_type: "bot",
      access_token: token,
      bot_user_id: owner.botUserId,
      team: owner.teamId ? { id: owner.teamId, name: `team ${owner.teamId}` } : null,
      enterprise: owner.enterpriseId ? { id: owner.enterpriseId, name: `org ${owner.enterpriseId}` } : null,
      is_enterprise_install: owner.isEnterpriseInstall,
      ...(refresh ? { refresh_token: refresh, expires_in: workspace.tokenLifetimeSeconds } : {}),
    };
  }
}
