import type { ToolOrigin } from "../contract/commands.js";
import type { AskerChannelReader } from "../contract/channel-access.js";
import { z } from "zod";
import type { Logger } from "../log.js";
import { BotError } from "../errors.js";

/** Who asked, in platform-free terms: tools may use it (time zones, quotas) but never need to. */
export interface ToolRequestInfo {
  platform: string;
  workspaceId: string;
  channelId: string;
  threadId?: string;
  /** The channel a thread-channel belongs to (Discord threads). */
  parentChannelId?: string;
  userId: string;
  /** Whether the asker may read another channel of their workspace, as their platform answers it; none: only this channel. */
  readChannel?: AskerChannelReader;
}

export interface ToolContext {
  /** Aborted when the tool's timeout passes or the whole turn is cancelled. */
  signal: AbortSignal;
  request: ToolRequestInfo;
  logger: Logger;
  /** Ask the model a side question (no tools, no memory); its tokens count towards the turn. */
  llm(prompt: string): Promise<string>;
}

export type JsonSchema = Record<string, unknown>;

/** The registry's view of a tool, whatever defined it. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** JSON schema of the arguments object, computed once: sent to the model as is. */
  readonly jsonSchema: JsonSchema;
  readonly returnDirect: boolean;
  readonly timeoutMs?: number;
  readonly origin: ToolOrigin;
  /** A question a person might ask that uses the tool: offered as a suggested prompt (Slack's assistant threads). */
  readonly example?: string;
  /** Each call waits for a person's approval unless a workspace's admins say otherwise (MCP tools marked destructive). */
  readonly approvalByDefault?: boolean;
  /** Checks raw model arguments; returns the parsed value or a readable problem. */
  parseArgs(raw: unknown): { ok: true; value: unknown } | { ok: false; error: string };
  run(args: unknown, ctx: ToolContext): Promise<unknown>;
}

export interface ToolSpec<Schema extends z.ZodObject> {
  name: string;
  description: string;
  parameters: Schema;
  returnDirect?: boolean;
  timeoutMs?: number;
  /** A question a person might ask that uses the tool (a suggested prompt). */
  example?: string;
  run(args: z.output<Schema>, ctx: ToolContext): unknown;
}

/** Names the OpenAI tool-calling API accepts. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

class ToolDefinitionError extends BotError<"tool_invalid"> {
  override readonly name = "ToolDefinitionError";
  constructor(message: string, options?: ErrorOptions) {
    super("tool_invalid", message, options);
  }
}

const DEFINED = Symbol.for("agent-bot.tool");

/**
 * The one way to define a tool, for built-ins and user plugins alike.
 * The zod schema is both the JSON schema the model sees and the check on its arguments.
 */
export function defineTool<Schema extends z.ZodObject>(spec: ToolSpec<Schema>, origin: ToolOrigin = "builtin"): Tool {
  if (!TOOL_NAME.test(spec.name)) {
    throw new ToolDefinitionError(`tool name "${spec.name}" must be 1-64 letters, digits, "_" or "-"`);
  }
  if (!spec.description?.trim()) throw new ToolDefinitionError(`tool "${spec.name}" needs a description`);
  if (!(spec.parameters instanceof z.ZodObject)) {
    throw new ToolDefinitionError(`tool "${spec.name}": parameters must be a zod object schema (z.object({...}))`);
  }
  if (typeof spec.run !== "function") throw new ToolDefinitionError(`tool "${spec.name}" needs a run function`);

  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(spec.parameters, { io: "input" }) as JsonSchema;
  const tool: Tool = {
    name: spec.name,
    description: spec.description.trim(),
    jsonSchema,
    returnDirect: spec.returnDirect ?? false,
    timeoutMs: spec.timeoutMs,
    origin,
    ...(spec.example ? { example: spec.example } : {}),
    parseArgs(raw) {
      const result = spec.parameters.safeParse(coerceSingleArgument(raw, spec.parameters));
      if (result.success) return { ok: true, value: result.data };
      return { ok: false, error: z.prettifyError(result.error) };
    },
    async run(args, ctx) {
      return spec.run(args as z.output<Schema>, ctx);
    },
  };
  Object.defineProperty(tool, DEFINED, { value: true });
  return tool;
}

export function isTool(value: unknown): value is Tool {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DEFINED] === true;
}

/**
 * Text-protocol models often send a bare value ("7.81") instead of an object. When the tool
 * has exactly one required parameter (or only one), the bare value is taken as that parameter.
 */
function coerceSingleArgument(raw: unknown, schema: z.ZodObject): unknown {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === "object") return raw;
  const keys = Object.keys(schema.shape);
  const required = keys.filter((key) => !schema.shape[key]!.safeParse(undefined).success);
  const target = required.length === 1 ? required[0] : keys.length === 1 ? keys[0] : undefined;
  if (target === undefined) return raw;
  const value = typeof raw === "string" ? parseLooseScalar(raw) : raw;
  return { [target]: value };
}

function parseLooseScalar(text: string): unknown {
  const trimmed = text.trim().replace(/^['"]|['"]$/g, "");
  return trimmed !== "" && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}
