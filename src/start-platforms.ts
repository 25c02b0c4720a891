import type { App } from "./app.js";
import type { Config } from "./config/env.js";
import { platformDefinitions } from "./platforms/index.js";
import { SealedInstallations } from "./store/sealed-installations.js";
import { SecretBox } from "./store/secrets.js";
import type { PlatformAdapter, PlatformDefinition, PlatformServices } from "./contract/platform.js";

type Definition = (typeof platformDefinitions)[number];

/** The platforms to start: every configured one, or the fallback (the terminal) when none is. */
export function choosePlatforms(config: Config): Definition[] {
  const configured = platformDefinitions.filter((platform) => !platform.fallback && platform.configured(config));
  return configured.length > 0 ? configured : platformDefinitions.filter((platform) => platform.fallback);
}

export type SharedServices = Pick<PlatformServices<unknown>, "streams" | "sharedRoutes">;

/** The narrow services one platform gets: its config, a link to the core, a logger. */
export function servicesFor(app: App, shared: SharedServices): PlatformServices<Config> {
  return {
    config: app.config,
    logger: app.logger,
    adminUserIds: app.config.BOT_ADMIN_USER_IDS,
    connect: (connection) => app.links.connect(connection),
    workspaces: app.purge,
    ...(app.config.SECRETS_KEY
      ? { installations: new SealedInstallations(app.store.installations, new SecretBox(app.config.SECRETS_KEY, app.config.SECRETS_KEY_PREVIOUS)) }
      : {}),
    ...shared,
  };
}

/** Imports a platform (its SDK with it) and creates its adapter. */
export async function createPlatform(definition: PlatformDefinition, services: PlatformServices<Config>): Promise<PlatformAdapter> {
  const module = await definition.load();
  return module.create(services);
}
