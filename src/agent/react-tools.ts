/**
 * What the text parser knows of the tools a turn offers. A model without native tool calling
 * writes a tool's name as it pleases (its class name `WikipediaSearch` for `wikipedia_search`,
 * `Wikipedia-Search`, `WikipediaSearchTool`) and a one-string tool's input as bare text, even
 * text that looks like broken JSON (`{temperature in SF}`); knowing the tools reads both as meant.
 */
export interface ToolShape {
  readonly name: string;
  /** The tool's arguments as a JSON schema (an object's properties and required ones). */
  readonly jsonSchema: Record<string, unknown>;
}

export class KnownTools {
  private readonly exact = new Set<string>();
  /** Spelling-free key to the one tool it names; null when two tools share the key. */
  private readonly loose = new Map<string, string | null>();
  private readonly textTools = new Set<string>();

  constructor(tools: readonly ToolShape[]) {
    for (const tool of tools) {
      this.exact.add(tool.name);
      const key = looseKey(tool.name);
      this.loose.set(key, this.loose.has(key) ? null : tool.name);
      if (takesOneString(tool.jsonSchema)) this.textTools.add(tool.name);
    }
  }

  get empty(): boolean {
    return this.exact.size === 0;
  }

  /** The offered tool a written name means, or undefined when it means none (or two). */
  find(written: string): string | undefined {
    if (this.exact.has(written)) return written;
    return this.loose.get(looseKey(written)) ?? undefined;
  }

  /** The offered tool's name for a written one, else the name as written (the invoker then says which tools exist). */
  resolve(written: string): string {
    return this.find(written) ?? written;
  }

  /** Whether the tool takes one string, so that bare text is its argument. */
  takesText(name: string): boolean {
    return this.textTools.has(name);
  }
}

/** "WikipediaSearch", "wikipedia_search", "Wikipedia Search" and "WikipediaSearchTool" alike. */
function looseKey(name: string): string {
  const key = name.toLowerCase().replace(/[\s_.-]/g, "");
  return key.length > 4 && key.endsWith("tool") ? key.slice(0, -4) : key;
}

/**
 * The rule the tools apply to a bare value (define-tool's coerceSingleArgument): it goes to the
 * one required parameter, or to the only one. Here that parameter must take a string.
 */
function takesOneString(schema: Record<string, unknown>): boolean {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const keys = Object.keys(properties);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const target = required.length === 1 ? required[0] : keys.length === 1 ? keys[0] : undefined;
  const type = target === undefined ? undefined : properties[target]?.type;
  return type === "string" || (Array.isArray(type) && type.includes("string"));
}
