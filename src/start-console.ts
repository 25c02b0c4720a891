import type { App } from "./app.js";
import { consoleSettingsOf, startConsole, type ConsoleServer } from "./console/console-server.js";
import type { PlatformAdapter } from "./contract/platform.js";
import { MemberRoles } from "./runner/member-roles.js";

/** Starts the operator's console (CONSOLE_PORT) over the app's own services: the ones the commands use. */
export function startConsoleFor(app: App, platforms: () => readonly PlatformAdapter[]): Promise<ConsoleServer> {
  const roles = new MemberRoles((name) => {
    const platform = platforms().find((adapter) => adapter.name === name);
    return platform?.memberRole ? (workspaceId, userId) => platform.memberRole!(workspaceId, userId) : undefined;
  });
  return startConsole(
    {
      ...{ store: app.store, commands: app.commands, policies: app.policies, access: app.access, usage: app.usage, budgets: app.budgets },
      ...{ prices: app.config.MODEL_PRICES, platforms, inFlight: () => app.runner.inFlight, logger: app.logger, roles, approvals: app.approvals },
    },
    consoleSettingsOf(app.config),
  );
}
