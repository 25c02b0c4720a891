import type { FakeGateway } from "./gateway.js";
import { ApiError, createBotMessage, editBotMessage, type OutgoingMessage } from "./messages.js";
import { CallbackKind, ChannelKind, member, MessageFlag, MessageKind, threadChannel, type MessagePayload } from "./payloads.js";
import { snowflake } from "./snowflake.js";
import type { InteractionRecord, World } from "./world.js";

interface RouteContext {
  params: string[];
  body: any;
  query: URLSearchParams;
  world: World;
  gateway: FakeGateway;
  gatewayUrl: string;
  /** Registered application commands, per scope ("global" or a guild id). */
  commands: Map<string, unknown[]>;
}

type RouteResult = { status: number; body?: unknown };

interface Route {
  method: string;
  pattern: RegExp;
  /** Interaction callbacks and webhooks authenticate with the interaction token, not the bot token. */
  public?: boolean;
  handle(context: RouteContext): RouteResult | Promise<RouteResult>;
}

const ID = "(\\d+)";
const ok = (body: unknown): RouteResult => ({ status: 200, body });
const noContent: RouteResult = { status: 204 };
const route = (method: string, path: string, handle: Route["handle"], isPublic = false): Route => ({
  method,
  pattern: new RegExp(`^${path}$`),
  handle,
  public: isPublic,
});

/** Discord's REST API, as much of it as the bot uses. Paths are relative to /api/v10 and already decoded. */
const routes: Route[] = [
  route("GET", "/gateway/bot", ({ gatewayUrl }) =>
    ok({ url: gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 } }),
  ),
  route("GET", "/users/@me", ({ world }) => ok(world.bot)),
  route("GET", "/applications/@me", ({ world }) => ok({ ...world.application, bot: world.bot, flags: 0 })),
  route("PUT", `/applications/${ID}/commands`, (ctx) => putCommands(ctx, "global")),
  route("PUT", `/applications/${ID}/guilds/${ID}/commands`, (ctx) => putCommands(ctx, ctx.params[1]!)),
  route("GET", `/guilds/${ID}/members/${ID}`, ({ world, params }) => {
    const guild = world.guilds.get(params[0]!);
    if (!guild) throw new ApiError(404, 10004, "Unknown Guild");
    const roles = guild.members.get(params[1]!);
    if (!roles) throw new ApiError(404, 10007, "Unknown Member");
    return ok(member(roles, world.user(params[1]!)));
  }),
  route("GET", `/channels/${ID}`, ({ world, params }) => ok(channelOrThrow(world, params[0]!))),
  route("POST", `/channels/${ID}/typing`, ({ world, params }) => (channelOrThrow(world, params[0]!), noContent)),
  route("POST", `/channels/${ID}/messages`, ({ world, gateway, params, body }) => {
    const created = createBotMessage(world, params[0]!, body as OutgoingMessage);
    announce(gateway, "MESSAGE_CREATE", created);
    return ok(created);
  }),
  route("GET", `/channels/${ID}/messages`, ({ world, params, query }) => ok(messagesBefore(world, params[0]!, query))),
  route("GET", `/channels/${ID}/messages/${ID}`, ({ world, params }) => ok(messageOrThrow(world, params[0]!, params[1]!))),
  route("PATCH", `/channels/${ID}/messages/${ID}`, ({ world, gateway, params, body }) => {
    const edited = editBotMessage(world, params[0]!, params[1]!, body as OutgoingMessage);
    announce(gateway, "MESSAGE_UPDATE", edited);
    return ok(edited);
  }),
  route("DELETE", `/channels/${ID}/messages/${ID}`, ({ world, params }) => {
    messageOrThrow(world, params[0]!, params[1]!);
    world.channelMessages(params[0]!).delete(params[1]!);
    return noContent;
  }),
  route("POST", `/channels/${ID}/messages/${ID}/threads`, startThread),
  route("POST", `/interactions/${ID}/([^/]+)/callback`, interactionCallback, true),
  route(
    "POST",
    `/webhooks/${ID}/([^/]+)`,
    ({ world, gateway, params, body }) => {
      const interaction = interactionByToken(world, params[1]!);
      if (!interaction.originalId) throw new ApiError(404, 10015, "Unknown Webhook");
      const created = createBotMessage(world, interaction.channelId, body as OutgoingMessage, {
        webhook_id: world.application.id,
        interaction_metadata: {
          id: interaction.id,
          type: 2,
          user: interaction.user,
          authorizing_integration_owners: { "0": interaction.guildId ?? "0" },
        },
      });
      if (!(created.flags & MessageFlag.Ephemeral)) announce(gateway, "MESSAGE_CREATE", created);
      return ok(created);
    },
    true,
  ),
  route(
    "GET",
    `/webhooks/${ID}/([^/]+)/messages/([^/]+)`,
    ({ world, params }) => {
      const interaction = interactionByToken(world, params[1]!);
      return ok(messageOrThrow(world, interaction.channelId, webhookMessageId(interaction, params[2]!)));
    },
    true,
  ),
  route(
    "PATCH",
    `/webhooks/${ID}/([^/]+)/messages/([^/]+)`,
    ({ world, gateway, params, body }) => {
      const interaction = interactionByToken(world, params[1]!);
      const edited = editBotMessage(world, interaction.channelId, webhookMessageId(interaction, params[2]!), body as OutgoingMessage);
      announce(gateway, "MESSAGE_UPDATE", edited);
      return ok(edited);
    },
    true,
  ),
];

export function findRoute(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const candidate of routes) {
    if (candidate.method !== method) continue;
    const match = candidate.pattern.exec(path);
    if (match) return { route: candidate, params: match.slice(1) };
  }
  return undefined;
}

function putCommands({ body, commands, world }: RouteContext, scope: string): RouteResult {
  const list = (body as Record<string, unknown>[]).map((command) => ({
    id: snowflake(),
    application_id: world.application.id,
    version: snowflake(),
    type: 1,
    ...command,
    ...(scope === "global" ? {} : { guild_id: scope }),
  }));
  commands.set(scope, list);
  return ok(list);
}

function startThread({ world, gateway, params, body }: RouteContext): RouteResult {
  const [channelId, messageId] = params as [string, string];
  const parent = channelOrThrow(world, channelId);
  if (parent.type !== ChannelKind.GuildText) throw new ApiError(400, 50024, "Cannot execute action on this channel type");
  const starter = messageOrThrow(world, channelId, messageId);
  const name = String(body?.name ?? "");
  if (name.length < 1 || name.length > 100) {
    throw new ApiError(400, 50035, "Invalid Form Body", {
      name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 100 in length." }] },
    });
  }
  // A thread started from a message takes the message's id, as on Discord.
  if (world.channels.has(messageId)) throw new ApiError(400, 160004, "A thread has already been created for this message");
  const thread = threadChannel(messageId, parent, world.bot.id, name);
  world.channels.set(thread.id, thread);
  starter.thread = thread;
  announce(gateway, "THREAD_CREATE", { ...thread, newly_created: true });
  return { status: 201, body: thread };
}

function interactionCallback({ world, gateway, params, body, query }: RouteContext): RouteResult {
  const interaction = world.interactions.get(params[0]!);
  if (!interaction || interaction.token !== params[1]) throw new ApiError(404, 10062, "Unknown interaction");
  if (body.type === CallbackKind.AutocompleteResult) return noContent;
  if (interaction.originalId || interaction.acknowledged) throw new ApiError(400, 40060, "Interaction has already been acknowledged.");
  interaction.acknowledged = true;
  if (body.type === CallbackKind.UpdateMessage || body.type === CallbackKind.DeferredUpdateMessage)
    return updateMessage(world, gateway, interaction, body, query);
  const data: OutgoingMessage = body.data ?? {};
  const deferred = body.type === CallbackKind.DeferredChannelMessage;
  const ephemeral = ((data.flags ?? 0) & MessageFlag.Ephemeral) !== 0;
  const created = createBotMessage(
    world,
    interaction.channelId,
    deferred ? {} : data,
    {
      type: MessageKind.ChatInputCommand,
      webhook_id: world.application.id,
      application_id: world.application.id,
      flags: (ephemeral ? MessageFlag.Ephemeral : 0) | (deferred ? MessageFlag.Loading : 0),
      interaction_metadata: {
        id: interaction.id,
        type: 2,
        user: interaction.user,
        authorizing_integration_owners: { "0": interaction.guildId ?? "0" },
      },
    },
    deferred,
  );
  interaction.originalId = created.id;
  if (!ephemeral) announce(gateway, "MESSAGE_CREATE", created);
  if (query.get("with_response") !== "true") return noContent;
  return ok({
    interaction: { id: interaction.id, type: 2, response_message_id: created.id, response_message_loading: deferred, response_message_ephemeral: ephemeral },
    resource: { type: body.type, message: created },
  });
}

/** A component interaction answered by editing the message its button is on (UPDATE_MESSAGE), or only acknowledged (DEFERRED_UPDATE_MESSAGE). */
function updateMessage(world: World, gateway: FakeGateway, interaction: InteractionRecord, body: any, query: URLSearchParams): RouteResult {
  if (!interaction.messageId) throw new ApiError(400, 40004, "Interaction is not a message component interaction");
  const message = messageOrThrow(world, interaction.channelId, interaction.messageId);
  if (body.type === CallbackKind.UpdateMessage) {
    editBotMessage(world, interaction.channelId, interaction.messageId, (body.data ?? {}) as OutgoingMessage);
    announce(gateway, "MESSAGE_UPDATE", message);
  }
  if (query.get("with_response") !== "true") return noContent;
  return ok({ interaction: { id: interaction.id, type: 3, response_message_id: message.id }, resource: { type: body.type, message } });
}

function interactionByToken(world: World, token: string): InteractionRecord {
  const found = [...world.interactions.values()].find((interaction) => interaction.token === token);
  if (!found) throw new ApiError(404, 10015, "Unknown Webhook");
  return found;
}

function webhookMessageId(interaction: InteractionRecord, id: string): string {
  if (id !== "@original") return id;
  if (!interaction.originalId) throw new ApiError(404, 10008, "Unknown Message");
  return interaction.originalId;
}

function channelOrThrow(world: World, id: string) {
  const channel = world.channels.get(id);
  if (!channel) throw new ApiError(404, 10003, "Unknown Channel");
  return channel;
}

function messageOrThrow(world: World, channelId: string, messageId: string): MessagePayload {
  channelOrThrow(world, channelId);
  const found = world.channelMessages(channelId).get(messageId);
  if (!found) throw new ApiError(404, 10008, "Unknown Message");
  return found;
}

/** Discord tells the gateway about what REST calls did, a moment after answering them. */
function announce(gateway: FakeGateway, event: string, data: object): void {
  const snapshot = structuredClone(data) as Record<string, unknown>;
  setImmediate(() => void gateway.dispatch(event, snapshot));
}

/** GET /channels/{id}/messages: newest first, before= an id (older ones), at most limit (50 by default, 100 at most), as Discord pages them. */
function messagesBefore(world: World, channelId: string, query: URLSearchParams): MessagePayload[] {
  channelOrThrow(world, channelId);
  const before = query.get("before");
  const limit = Math.min(100, Number(query.get("limit") ?? 50));
  return [...world.channelMessages(channelId).values()]
    .filter((message) => before === null || BigInt(message.id) < BigInt(before))
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
    .slice(0, limit);
}
