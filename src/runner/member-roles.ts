import type { Role } from "../contract/inbound.js";

type MemberRoleLookup = (workspaceId: string, userId: string) => Promise<Role | undefined>;

/** A lookup that takes longer than this counts as "not a member" (a page must not hang on a platform). */
const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * A person's role in a workspace as the bot's own platform connection sees it (the member's
 * permissions there), for what signs people in outside a chat (the operator's console): asked of
 * the running platform of that name, bounded in time, a failure counting as "not a member".
 */
export class MemberRoles {
  constructor(private readonly lookupFor: (platform: string) => MemberRoleLookup | undefined) {}

  /** Undefined when the bot is not in the workspace, the person is not a member, or the platform cannot tell. */
  async roleOf(platform: string, workspaceId: string, userId: string): Promise<Role | undefined> {
    const lookup = this.lookupFor(platform);
    if (!lookup) return undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        lookup(workspaceId, userId),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), LOOKUP_TIMEOUT_MS);
        }),
      ]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}
