import type { Access, BotCommand, CommandGroup } from "../../contract/commands.js";

/** tool and model: a name the platform may complete (Discord autocomplete); choice: one of `choices`. */
type OptionKind = "tool" | "model" | "choice" | "channel" | "user" | "role" | "integer" | "text";

export interface CommandOption {
  name: string;
  kind: OptionKind;
  description: string;
  required: boolean;
  /** Platforms that limit option length (Discord) use it. */
  maxLength?: number;
  /** The values a "choice" option takes. */
  choices?: readonly string[];
}

/** Option values as the platform read them: ids for channels, users and roles, null for "not given". */
export type OptionValues = Record<string, string | number | null | undefined>;

export interface CommandSpec {
  group: CommandGroup;
  /** The kind of command it builds (several specs may build one kind). */
  kind: BotCommand["kind"];
  /** The subcommand's name ("" for the command of a bare group, such as /usage). */
  name: string;
  /** A group of subcommands within the group ("settings channel show"). */
  subgroup?: string;
  description: string;
  options: CommandOption[];
  access: Access;
  /** Needs platform roles (Discord has them, Slack does not). */
  needsRoles?: boolean;
  /** Other text forms that mean the same ("settings channels add" for "settings channel-add"). */
  aliases?: string[];
  build(values: OptionValues): BotCommand;
}

export interface GroupSpec {
  name: CommandGroup;
  description: string;
  /** One command without subcommands (/usage). */
  bare?: boolean;
  /** Offered in direct messages too (Discord contexts); the others belong to a server or workspace. */
  inDirectMessages: boolean;
  /** Shown only to admins by default where the platform can hide commands (Discord's default member permissions). */
  forAdmins: boolean;
}

/** The question command (`/ask`), described like the others for the platforms that register it. */
export const ASK = {
  name: "ask",
  description: "Ask the bot a question; it may use tools and shows each step.",
  option: { name: "question", description: "What do you want to know?", maxLength: 1_500 },
} as const;

export const GROUPS: readonly GroupSpec[] = [
  { name: "tools", description: "See or change which tools the bot may use here.", inDirectMessages: false, forAdmins: true },
  { name: "memory", description: "What the bot remembers of this conversation.", inDirectMessages: true, forAdmins: false },
  { name: "settings", description: "See or change where and how the bot works here.", inDirectMessages: false, forAdmins: true },
  {
    name: "usage",
    description: "Turns, tokens and estimated cost here, for today and the last 30 days (admins).",
    bare: true,
    inDirectMessages: false,
    forAdmins: true,
  },
  { name: "schedule", description: "Tasks the bot runs at set times, and their runs.", inDirectMessages: false, forAdmins: false },
];

const toolOption: CommandOption = { name: "tool", kind: "tool", description: "The tool's name", required: true };
const channelOption: CommandOption = { name: "channel", kind: "channel", description: "The channel (this one if none is given)", required: false };
const userOption: CommandOption = { name: "user", kind: "user", description: "The member", required: true };
const roleOption: CommandOption = { name: "role", kind: "role", description: "The role", required: true };
const DEFAULT_WORD = /^(default|clear|none|reset)$/i;
const text = (values: OptionValues, name: string) => (values[name] === undefined || values[name] === null ? undefined : String(values[name]));

/** Every command, once: the text parser, Discord's definitions, Slack's usage and the help come from here. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    group: "tools",
    kind: "tools_list",
    name: "list",
    description: "Every tool and whether it is on here.",
    options: [],
    access: "anyone",
    build: () => ({ kind: "tools_list" }),
  },
  {
    group: "tools",
    kind: "tools_set",
    name: "enable",
    description: "Let the bot use a tool here.",
    options: [toolOption],
    access: "admin",
    build: (values) => ({ kind: "tools_set", tool: text(values, "tool") ?? "", enabled: true }),
  },
  {
    group: "tools",
    kind: "tools_set",
    name: "disable",
    description: "Stop the bot using a tool here.",
    options: [toolOption],
    access: "admin",
    build: (values) => ({ kind: "tools_set", tool: text(values, "tool") ?? "", enabled: false }),
  },
  {
    group: "tools",
    kind: "tools_approval",
    name: "require-approval",
    description: "Ask a person to approve each call of a tool here before it runs.",
    options: [toolOption],
    access: "admin",
    build: (values) => ({ kind: "tools_approval", tool: text(values, "tool") ?? "", required: true }),
  },
  {
    group: "tools",
    kind: "tools_approval",
    name: "no-approval",
    description: "Let a tool run here without asking first.",
    options: [toolOption],
    access: "admin",
    build: (values) => ({ kind: "tools_approval", tool: text(values, "tool") ?? "", required: false }),
  },
  {
    group: "memory",
    kind: "memory_show",
    name: "show",
    description: "Show the recent conversation the bot remembers here (only you see it).",
    options: [],
    access: "anyone",
    build: () => ({ kind: "memory_show" }),
  },
  {
    group: "memory",
    kind: "memory_clear",
    name: "clear",
    description: "Forget this conversation's recent messages.",
    options: [],
    access: "moderator",
    build: () => ({ kind: "memory_clear" }),
  },
  {
    group: "settings",
    kind: "settings_show",
    name: "show",
    description: "The settings here.",
    options: [],
    access: "anyone",
    build: () => ({ kind: "settings_show" }),
  },
  {
    group: "settings",
    kind: "settings_channels",
    name: "channel-add",
    description: "Answer only in listed channels: add one.",
    options: [channelOption],
    access: "admin",
    aliases: ["channels add"],
    build: (values) => ({ kind: "settings_channels", action: "add", channel: text(values, "channel") }),
  },
  {
    group: "settings",
    kind: "settings_channels",
    name: "channel-remove",
    description: "Remove a channel from the list.",
    options: [channelOption],
    access: "admin",
    aliases: ["channels remove"],
    build: (values) => ({ kind: "settings_channels", action: "remove", channel: text(values, "channel") }),
  },
  {
    group: "settings",
    kind: "settings_channels",
    name: "channels-all",
    description: "Answer in every channel again.",
    options: [],
    access: "admin",
    aliases: ["channels all"],
    build: () => ({ kind: "settings_channels", action: "all" }),
  },
  ...(["ignore", "unignore"] as const).flatMap((verb): CommandSpec[] => [
    {
      group: "settings",
      kind: "settings_ignore",
      name: `${verb}-user`,
      description: verb === "ignore" ? "Ignore a member's messages." : "Listen to a member again.",
      options: [userOption],
      access: "admin",
      build: (values) => ({ kind: "settings_ignore", target: "user", action: verb === "ignore" ? "add" : "remove", id: text(values, "user") ?? "" }),
    },
    {
      group: "settings",
      kind: "settings_ignore",
      name: `${verb}-role`,
      description: verb === "ignore" ? "Ignore members with a role." : "Listen to members with a role again.",
      options: [roleOption],
      access: "admin",
      needsRoles: true,
      build: (values) => ({ kind: "settings_ignore", target: "role", action: verb === "ignore" ? "add" : "remove", id: text(values, "role") ?? "" }),
    },
  ]),
  {
    group: "settings",
    kind: "settings_memory",
    name: "memory",
    description: 'How many exchanges the bot remembers per conversation (empty or "default" for the default).',
    options: [{ name: "exchanges", kind: "integer", description: "Exchanges to remember", required: false }],
    access: "admin",
    build: (values) => ({ kind: "settings_memory", window: typeof values.exchanges === "number" ? values.exchanges : null }),
  },
  {
    group: "settings",
    kind: "settings_prompt",
    name: "prompt",
    description: 'Extra instructions for the bot here (empty or "clear" to clear).',
    options: [{ name: "text", kind: "text", description: "The instructions", required: false, maxLength: 2_000 }],
    access: "admin",
    build: (values) => {
      const instructions = text(values, "text")?.trim();
      return { kind: "settings_prompt", text: !instructions || /^(clear|none|default)$/i.test(instructions) ? null : instructions };
    },
  },
  ...channelCommands(),
  ...scheduleCommands(),
  ...memorySummaryCommands(),
  ...budgetCommands(),
  ...historyCommands(),
  {
    group: "usage",
    kind: "usage_show",
    name: "",
    description: "Turns, tokens in and out, top users, channels and models, and the estimated cost (only you see it).",
    options: [],
    access: "admin",
    build: () => ({ kind: "usage_show" }),
  },
];

/** `settings channel …`: this channel's own settings, which its threads follow too. */
function channelCommands(): CommandSpec[] {
  const channel = { group: "settings", subgroup: "channel" } as const;
  const orDefault = (value: string | undefined) => (value === undefined || DEFAULT_WORD.test(value) ? null : value);
  return [
    {
      ...channel,
      kind: "channel_show",
      name: "show",
      description: "This channel's own settings.",
      options: [],
      access: "anyone",
      build: () => ({ kind: "channel_show" }),
    },
    {
      ...channel,
      kind: "channel_tool",
      name: "tools",
      description: "Switch a tool off (or on, or back to the server's choice) in this channel.",
      options: [
        toolOption,
        { name: "state", kind: "choice", choices: ["on", "off", "default"], description: "on, off, or default (the server's)", required: true },
      ],
      access: "admin",
      build: (values) => ({ kind: "channel_tool", tool: text(values, "tool") ?? "", state: (text(values, "state") ?? "default") as "on" | "off" | "default" }),
    },
    {
      ...channel,
      kind: "channel_prompt",
      name: "prompt",
      description: 'Extra instructions in this channel, after the server\'s (empty or "clear" to clear).',
      options: [{ name: "text", kind: "text", description: "The instructions", required: false, maxLength: 2_000 }],
      access: "admin",
      build: (values) => ({ kind: "channel_prompt", text: orDefault(text(values, "text")?.trim() || undefined) }),
    },
    {
      ...channel,
      kind: "channel_memory",
      name: "memory",
      description: 'How many exchanges the bot remembers in this channel (empty or "default" for the server\'s).',
      options: [{ name: "exchanges", kind: "integer", description: "Exchanges to remember", required: false }],
      access: "admin",
      build: (values) => ({ kind: "channel_memory", window: typeof values.exchanges === "number" ? values.exchanges : null }),
    },
    {
      ...channel,
      kind: "channel_model",
      name: "model",
      description: 'The model in this channel, one of OPENAI_MODELS (empty or "default" for the default).',
      options: [{ name: "model", kind: "model", description: "The model's name", required: false }],
      access: "admin",
      build: (values) => ({ kind: "channel_model", model: orDefault(text(values, "model")) }),
    },
    {
      ...channel,
      kind: "channel_reset",
      name: "reset",
      description: "Forget this channel's own settings: it follows the server's again.",
      options: [],
      access: "admin",
      build: () => ({ kind: "channel_reset" }),
    },
  ];
}

/**
 * `schedule …` and the two settings of scheduled tasks (issue 26). Who may manage which task is the
 * schedule commands' own check (admins any, members their own where `settings schedules members`).
 */
function scheduleCommands(): CommandSpec[] {
  const idOption: CommandOption = { name: "id", kind: "text", description: "The task's id (see /schedule list)", required: true, maxLength: 40 };
  const byId = (action: "remove" | "pause" | "resume" | "run" | "history", description: string): CommandSpec => ({
    group: "schedule",
    kind: "schedule_task",
    name: action,
    description,
    options: [idOption],
    access: "anyone",
    build: (values) => ({ kind: "schedule_task", action, id: text(values, "id")?.trim() ?? "" }),
  });
  return [
    {
      group: "schedule",
      kind: "schedule_list",
      name: "list",
      description: "The tasks here: id, when, task, creator, next run, last outcome.",
      options: [],
      access: "anyone",
      build: () => ({ kind: "schedule_list" }),
    },
    {
      group: "schedule",
      kind: "schedule_add",
      name: "add",
      description: 'Run a task at set times: WHEN is a cron or "every weekday at 9", "in 20 minutes"…',
      options: [
        { name: "when", kind: "text", description: "When: a 5-field cron or a phrase such as every day at 9:00", required: true, maxLength: 100 },
        { name: "task", kind: "text", description: "What the bot should do then, as you would ask it", required: true, maxLength: 1_500 },
      ],
      access: "anyone",
      build: (values) => ({ kind: "schedule_add", when: text(values, "when")?.trim() ?? "", task: text(values, "task")?.trim() ?? "" }),
    },
    byId("remove", "Delete a task and its history."),
    byId("pause", "Stop a task running until it is resumed."),
    byId("resume", "Let a paused task run again."),
    byId("run", "Run a task now, once (its schedule stays as it is)."),
    byId("history", "A task's last 10 runs: time, outcome, tokens, link."),
    {
      group: "settings",
      kind: "settings_timezone",
      name: "timezone",
      description: 'The time zone of scheduled tasks here, such as Europe/Paris (empty or "default": the default).',
      options: [{ name: "zone", kind: "text", description: "The time zone", required: false, maxLength: 64 }],
      access: "admin",
      build: (values) => {
        const zone = text(values, "zone")?.trim();
        return { kind: "settings_timezone", zone: !zone || DEFAULT_WORD.test(zone) ? null : zone };
      },
    },
    {
      group: "settings",
      kind: "settings_schedules",
      name: "schedules",
      description: "Who may create scheduled tasks: members (who then manage their own) or admins only.",
      options: [{ name: "who", kind: "choice", choices: ["members", "admins"], description: "members or admins", required: true }],
      access: "admin",
      build: (values) => ({ kind: "settings_schedules", members: text(values, "who") === "members" }),
    },
  ];
}

/** `settings memory-summary` and `settings channel memory-summary` (issue 24): the summary of what left the memory window. */
function memorySummaryCommands(): CommandSpec[] {
  return [
    {
      group: "settings",
      kind: "settings_memory_summary",
      name: "memory-summary",
      description: "Keep a summary of what leaves the memory window in this workspace's conversations (on or off).",
      options: [{ name: "state", kind: "choice", choices: ["on", "off"], description: "on or off", required: true }],
      access: "admin",
      build: (values) => ({ kind: "settings_memory_summary", enabled: text(values, "state") !== "off" }),
    },
    {
      group: "settings",
      subgroup: "channel",
      kind: "channel_memory_summary",
      name: "memory-summary",
      description: "Keep a summary of what leaves the memory window in this channel (on, off, or default: the server's).",
      options: [{ name: "state", kind: "choice", choices: ["on", "off", "default"], description: "on, off, or default (the server's)", required: true }],
      access: "admin",
      build: (values) => ({ kind: "channel_memory_summary", state: (text(values, "state") ?? "default") as "on" | "off" | "default" }),
    },
  ];
}

/** `settings budget …` and `settings alerts-channel` (issue 25): spending budgets and where their alerts go. */
function budgetCommands(): CommandSpec[] {
  const period: CommandOption = { name: "period", kind: "choice", choices: ["day", "month"], description: "day or month (calendar)", required: true };
  const amount: CommandOption = {
    name: "amount",
    kind: "text",
    description: 'Tokens ("50000", "50k") or dollars ("$5", "5 USD"), or "clear"',
    required: true,
    maxLength: 40,
  };
  const build = (scope: "workspace" | "channel" | "user") => (values: OptionValues) => ({
    kind: "settings_budget" as const,
    scope,
    user: scope === "user" ? text(values, "user") : undefined,
    period: (text(values, "period") ?? "day") as "day" | "month",
    amount: text(values, "amount") ?? "",
  });
  const budget = { group: "settings", subgroup: "budget", kind: "settings_budget", access: "admin" } as const;
  return [
    {
      ...budget,
      name: "workspace",
      description: "Cap what the whole server may spend per day or month.",
      options: [period, amount],
      build: build("workspace"),
    },
    { ...budget, name: "channel", description: "Cap what this channel (with its threads) may spend.", options: [period, amount], build: build("channel") },
    {
      ...budget,
      name: "user",
      description: "Cap what a member (or, with none named, each member) may spend.",
      options: [{ name: "user", kind: "user", description: "The member (every member if none)", required: false }, period, amount],
      build: build("user"),
    },
    {
      group: "settings",
      kind: "settings_alerts_channel",
      name: "alerts-channel",
      description: 'Where budget alerts go ("clear": a direct message to each admin).',
      options: [channelOption],
      access: "admin",
      build: (values) => {
        const channel = text(values, "channel");
        return { kind: "settings_alerts_channel", channel: channel && DEFAULT_WORD.test(channel) ? null : (channel ?? undefined) };
      },
    },
  ];
}

/** Issue 24: a channel's history on or off, and forgetting one's own messages. */
function historyCommands(): CommandSpec[] {
  return [
    {
      group: "memory",
      kind: "memory_forget_me",
      name: "forget-me",
      description: "Remove your messages here from the bot's search index and memory (only you see the reply).",
      options: [],
      access: "anyone",
      build: () => ({ kind: "memory_forget_me" }),
    },
    {
      group: "settings",
      subgroup: "channel",
      kind: "channel_history",
      name: "history",
      description: "Index this channel for search_history (on), drop it (off), or read earlier messages (backfill DAYS).",
      options: [
        { name: "state", kind: "choice", choices: ["on", "off", "backfill"], description: "on, off, or backfill", required: true },
        { name: "days", kind: "integer", description: "backfill: how many days back to read", required: false },
      ],
      access: "admin",
      build: (values) => {
        const state = text(values, "state");
        if (state === "backfill") return { kind: "channel_history", state, days: typeof values.days === "number" ? values.days : undefined };
        return { kind: "channel_history", state: state === "on" ? "on" : "off" };
      },
    },
  ];
}

/** Who may run a command of this kind (help: anyone). */
export function accessOf(command: BotCommand): Access {
  return COMMANDS.find((spec) => spec.kind === command.kind)?.access ?? "anyone";
}
