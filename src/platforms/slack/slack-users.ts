import type { SlackPlace } from "./inbound.js";
import type { SlackApi, SlackUser } from "./slack-api.js";

/** Who a person is, as users.info said (nothing of it when the lookup failed). */
export interface SlackPerson extends Partial<SlackUser> {
  /** Listed in SLACK_ADMIN_USER_IDS or BOT_ADMIN_USER_IDS: an admin everywhere. */
  listed: boolean;
}

/**
 * Whether a person is an admin for the bot where a request came from. On Enterprise Grid the
 * bot's settings, memory and usage are the organisation's (see workspaceOf), so only the
 * organisation's admins and owners are: an admin of one workspace of it is a member there, or
 * they would rule the bot in every other workspace of the org. Elsewhere, the workspace's own
 * admins and owners, never those of another workspace met in a shared channel.
 */
export function isAdminIn(person: SlackPerson, place: SlackPlace): boolean {
  if (person.listed) return true;
  if (place.enterpriseId !== undefined) return person.enterprise?.id === place.enterpriseId && person.enterprise.isAdmin;
  return person.isWorkspaceAdmin === true && (person.teamId === undefined || person.teamId === place.teamId);
}

const DEFAULT_TTL_MS = 5 * 60 * 1000;
/** People remembered at most; the oldest entries go first (a Map keeps insertion order). */
const MAX_CACHED_PEOPLE = 10_000;

/**
 * Who a Slack user is, for permissions and the audit: users.info, cached a few minutes so a busy
 * channel costs one lookup per person. A failed lookup is not cached and counts as "not an admin" (unless listed).
 */
export class SlackUsers {
  private readonly cache = new Map<string, { person: SlackPerson; until: number }>();

  constructor(
    private readonly api: SlackApi,
    private readonly configuredAdmins: ReadonlySet<string>,
    private readonly ttlMs = DEFAULT_TTL_MS,
  ) {}

  async lookup(userId: string): Promise<SlackPerson> {
    const cached = this.cache.get(userId);
    if (cached && cached.until > Date.now()) return cached.person;
    const listed = this.configuredAdmins.has(userId);
    const info = await this.api.userInfo(userId);
    if (!info.ok) return { listed };
    const person: SlackPerson = { ...info.value, listed };
    this.cache.delete(userId);
    if (this.cache.size >= MAX_CACHED_PEOPLE) this.evict();
    this.cache.set(userId, { person, until: Date.now() + this.ttlMs });
    return person;
  }

  /** Entries held (for the leak checks). */
  get size(): number {
    return this.cache.size;
  }

  private evict(): void {
    const now = Date.now();
    for (const [id, entry] of this.cache) if (entry.until <= now) this.cache.delete(id);
    for (const id of this.cache.keys()) {
      if (this.cache.size < MAX_CACHED_PEOPLE * 0.9) break;
      this.cache.delete(id);
    }
  }
}
