import type { SlackApi } from "./slack-api.js";

export interface SlackPerson {
  name?: string;
  /** Workspace admin or owner, or listed in SLACK_ADMIN_USER_IDS / BOT_ADMIN_USER_IDS. */
  isAdmin: boolean;
}

const DEFAULT_TTL_MS = 5 * 60 * 1000;
/** People remembered at most; the oldest entries go first (a Map keeps insertion order). */
const MAX_CACHED_PEOPLE = 10_000;

/**
 * Who a Slack user is, for permissions and the audit: users.info, cached a few minutes so a busy
 * channel costs one lookup per person. A failed lookup is not cached and counts as "not an admin".
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
    if (!info.ok) return { isAdmin: listed };
    const person = { name: info.value.name, isAdmin: listed || info.value.isWorkspaceAdmin };
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
