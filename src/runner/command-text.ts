import type { BotCommand } from "./commands.js";

/**
 * Reads the text form of commands (the terminal, Slack's slash command text):
 * "tools", "tools enable NAME", "tools disable NAME", "memory show", "memory clear", "help",
 * "settings", "settings channels add|remove [CHANNEL]", "settings channels all",
 * "settings ignore-user|unignore-user USER", "settings ignore-role|unignore-role ROLE",
 * "settings memory N|default", "settings prompt TEXT|clear". Undefined for anything else.
 */
export function parseCommandText(text: string): BotCommand | undefined {
  const [group = "", action = "", ...rest] = text.trim().replace(/^\//, "").split(/\s+/);
  const target = rest.join(" ");
  switch (`${group.toLowerCase()} ${action.toLowerCase()}`.trim()) {
    case "tools":
    case "tools list":
      return { kind: "tools_list" };
    case "tools enable":
      return target ? { kind: "tools_set", tool: target, enabled: true } : undefined;
    case "tools disable":
      return target ? { kind: "tools_set", tool: target, enabled: false } : undefined;
    case "memory clear":
      return { kind: "memory_clear" };
    case "memory show":
    case "memory":
      return { kind: "memory_show" };
    case "help":
      return { kind: "help" };
    case "settings":
    case "settings show":
      return { kind: "settings_show" };
    case "settings channels":
      return parseChannels(rest);
    case "settings ignore-user":
    case "settings unignore-user":
    case "settings ignore-role":
    case "settings unignore-role": {
      const id = rest[0] && platformId(rest[0]);
      if (!id) return undefined;
      return {
        kind: "settings_ignore",
        target: action.toLowerCase().endsWith("user") ? "user" : "role",
        action: action.toLowerCase().startsWith("un") ? "remove" : "add",
        id,
      };
    }
    case "settings memory": {
      if (target.toLowerCase() === "default") return { kind: "settings_memory", window: null };
      return /^\d+$/.test(target) ? { kind: "settings_memory", window: Number(target) } : undefined;
    }
    case "settings prompt": {
      // keep the instructions' own spacing: take everything after "settings prompt"
      const instructions = text.trim().replace(/^\/?\s*settings\s+prompt\s*/i, "");
      if (instructions === "") return undefined;
      return { kind: "settings_prompt", text: /^(clear|none|default)$/i.test(instructions) ? null : instructions };
    }
    default:
      return undefined;
  }
}

function parseChannels([action = "", channel]: string[]): BotCommand | undefined {
  const verb = action.toLowerCase();
  if (verb === "all") return { kind: "settings_channels", action: "all" };
  if (verb !== "add" && verb !== "remove") return undefined;
  return { kind: "settings_channels", action: verb, channel: channel ? platformId(channel) : undefined };
}

/** An id from a platform mention token: <#C123|general>, <@U123>, <@&123>, <!subteam^S1|name>, or a bare id. */
export function platformId(token: string): string {
  const match = /^<[#@!][&!]?(?:subteam\^)?([\w.-]+)(?:\|[^>]*)?>$/.exec(token.trim());
  return match ? match[1]! : token.trim();
}
