import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import type { Logger } from "../log.js";
import type { Role } from "./inbound.js";
import type { PlatformConnection, PlatformLink } from "./link.js";

/** Answers some HTTP requests (GET /healthz, /metrics); false for the others. */
type HttpHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The app's installations in a platform's workspaces, stored encrypted (SECRETS_KEY): a platform
 * hands over its installation as text and gets it back; sealing is the store's business.
 */
export interface InstallationVault {
  save(platform: string, key: string, record: { teamId?: string; enterpriseId?: string; data: string; expiresAt?: number }): Promise<void>;
  /** Throws when no configured key opens the stored value. */
  find(platform: string, key: string): Promise<string | undefined>;
  remove(platform: string, key: string): Promise<boolean>;
}

/**
 * The app leaving a workspace and coming back (Slack's uninstall and reinstall): a departure stops
 * the workspace's schedules at once and purges its data after UNINSTALL_PURGE_DAYS; a return
 * before then keeps it. Both may reject (the database is down); the platform logs it.
 */
interface WorkspaceLifecycle {
  left(platform: string, workspaceId: string, reason: string): Promise<void>;
  returned(platform: string, workspaceId: string): Promise<void>;
}

/** The narrow services a platform gets from the process: its own config, the core's link, a logger. */
export interface PlatformServices<C> {
  config: C;
  logger: Logger;
  /** Admins everywhere (BOT_ADMIN_USER_IDS). */
  adminUserIds: readonly string[];
  /** Connects the platform's surface to the core; the link is all of the core it uses. */
  connect(connection: PlatformConnection): PlatformLink;
  /** Set when SECRETS_KEY is: where installations are kept (Slack's distribution mode needs it). */
  installations?: InstallationVault;
  /** Where a platform says it was uninstalled from or installed in a workspace. */
  workspaces?: WorkspaceLifecycle;
  /** Set when the platform's own HTTP server should also serve these routes (it listens on HEALTH_PORT). */
  sharedRoutes?: { paths: string[]; handler: HttpHandler };
  /** The process's standard streams (the terminal talks over them; tests pass their own). */
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };
}

/** A running connection to one platform. */
export interface PlatformAdapter {
  readonly name: string;
  start(): Promise<void>;
  /** Stops receiving events and closes connections; running turns are the runner's to finish. */
  stop(): Promise<void>;
  /** Connection state for /healthz. */
  health(): { connected: boolean; detail?: string };
  /** Resolves when the platform has nothing more to say (the terminal's end of input). */
  readonly finished?: Promise<void>;
  /** Ctrl-C means "stop now" here (the terminal): the running turn is cancelled at once. */
  readonly interactive?: boolean;
  /**
   * A person's role in a workspace by the bot's own view of their permissions there (the operator's
   * console signs admins in with it): undefined when the bot is not in the workspace or the person
   * is not one of its members.
   */
  memberRole?(workspaceId: string, userId: string): Promise<Role | undefined>;
}

/** The heavy part of a platform, imported only when it starts (its SDK with it). */
interface PlatformModule<C> {
  create(services: PlatformServices<C>): PlatformAdapter;
  /** For `npm run doctor`: checks the credentials against the platform without starting anything. */
  checkCredentials?(config: C): Promise<string>;
}

/** A platform as the process knows it before starting it: cheap to import, no SDK. */
export interface PlatformDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  /** The platform's own environment variables, composed into the one config. */
  config: Shape;
  /** True when the configuration has this platform's credentials. */
  configured(config: ConfigOf<Shape>): boolean;
  /** Rules across its variables (one variable alone is checked by its schema). */
  check?(config: ConfigOf<Shape>): ConfigIssue[];
  /** Started only when no other platform is configured (the terminal). */
  fallback?: boolean;
  /** The port of the HTTP server the platform will run, if any (Slack's HTTP mode), so others can share it. */
  httpPort?(config: ConfigOf<Shape>): number | undefined;
  load(): Promise<PlatformModule<ConfigOf<Shape>>>;
}

/** A wrong combination of variables: the one to change, and what it must be. */
export interface ConfigIssue {
  variable: string;
  /** Read after "VARIABLE must be ". */
  message: string;
}

/** A platform's config as its code sees it (an empty shape reads as no fields at all). */
export type ConfigOf<Shape extends z.ZodRawShape> = keyof Shape extends never ? object : z.output<z.ZodObject<Shape>>;

/** Declares a platform with its config's types checked. */
export const definePlatform = <Shape extends z.ZodRawShape>(definition: PlatformDefinition<Shape>): PlatformDefinition<Shape> => definition;
