import { parseModelRef } from "../agent/model-ref.js";
import { openModelCatalog } from "../agent/providers/open-catalog.js";
import { loadConfig, type Config } from "../config/env.js";
import { processEnvironment } from "../config/environment.js";
import { misspelledVariables } from "../config/misspelled-variables.js";
import { modelChoices, providerConnections } from "../config/models.js";
import { storeSettingsOf } from "../config/store-settings.js";
import { silentLogger } from "../log.js";
import { platformDefinitions } from "../platforms/index.js";
import { openStore } from "../store/open-store.js";
import { redactUrl } from "../store/redact-url.js";
import type { Store } from "../store/store.js";
import { checkMcpServers, checkPlugins } from "./doctor-extensions.js";
import { attempt, type Verdict, withTimeout } from "./verdict.js";
import { useProxy } from "../net/proxy.js";
import { hasCode } from "../errors.js";

/** `npm run doctor`: checks what the bot needs, one verdict per item, without starting the bot. */

export type { Verdict };

export interface DoctorOptions {
  /** The longest wait for any one thing checked (a server to answer, a plugin to load). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export async function runDoctor(env: NodeJS.ProcessEnv = processEnvironment(), options: DoctorOptions = {}): Promise<Verdict[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    const detail = hasCode(error, "config_invalid") ? error.message.replace(/^Configuration error:\n\s*/, "") : String(error);
    // A misspelled name may be why a variable seems missing.
    return [{ item: "configuration", status: "fail", detail }, ...configurationWarnings(env)];
  }
  // The SDKs write their own warnings to the console (Slack's "[WARN] web-api:WebClient:0 http
  // request failed"); the verdicts already say what failed, so the doctor's output is its lines only.
  const restoreConsole = muteConsole();
  try {
    // The model is checked the way the bot reaches it: through the proxy, if one is set.
    useProxy(config);
    const verdicts: Verdict[] = [{ item: "configuration", status: "pass", detail: "every variable is valid" }];
    verdicts.push(...configurationWarnings(env));
    verdicts.push(await checkDatabase(config, timeoutMs));
    verdicts.push(await checkModel(config, timeoutMs));
    for (const platform of platformDefinitions) {
      if (platform.fallback || !platform.configured(config)) continue;
      const { checkCredentials } = await platform.load();
      if (checkCredentials) verdicts.push(await attempt(`${platform.name} token`, () => withTimeout(checkCredentials(config), timeoutMs)));
    }
    verdicts.push(...(await checkPlugins(config, env, timeoutMs)));
    verdicts.push(...(await checkMcpServers(config, env, timeoutMs)));
    return verdicts;
  } finally {
    restoreConsole();
  }
}

function configurationWarnings(env: NodeJS.ProcessEnv): Verdict[] {
  return misspelledVariables(env).map((warning) => ({ item: "configuration", status: "warning", detail: warning }));
}

async function checkDatabase(config: Config, timeoutMs: number): Promise<Verdict> {
  const where = config.DATABASE_URL ? redactUrl(config.DATABASE_URL) : config.DATABASE_PATH;
  let store: Store | undefined;
  try {
    store = await openStore(storeSettingsOf(config, silentLogger(), { poolSize: 1, timeoutMs }));
    const report = await store.inspect();
    if (report.problem) return { item: "database", status: "fail", detail: report.problem };
    return { item: "database", status: "pass", detail: `${report.location} at schema version ${report.schemaVersion}, ${report.turns} turns recorded` };
  } catch (error) {
    return { item: "database", status: "fail", detail: `cannot open ${where}: ${(error as Error).message}` };
  } finally {
    await store?.close();
  }
}

/** The default model's provider: is it configured, does it answer, does it list the default model. */
async function checkModel(config: Config, timeoutMs: number): Promise<Verdict> {
  const anthropic = config.MODEL_PROVIDER === "anthropic";
  if (anthropic ? !config.ANTHROPIC_API_KEY && !config.ANTHROPIC_BASE_URL : !config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) {
    const detail = anthropic
      ? "set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a gateway that needs no key)"
      : "set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a local OpenAI-compatible server)";
    return { item: "model", status: "fail", detail };
  }
  const endpoint = anthropic ? (config.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com") : (config.OPENAI_BASE_URL ?? "https://api.openai.com/v1");
  const model = anthropic ? config.ANTHROPIC_MODEL : config.OPENAI_MODEL;
  try {
    const catalog = await openModelCatalog([], config.MODEL_PROVIDER, providerConnections(config, timeoutMs));
    const models = await withTimeout(catalog.primary.listModels(), timeoutMs);
    // The first model of this provider that turns may use: the default, unless OPENAI_MODELS begins with another provider's.
    const wanted =
      modelChoices(config)
        .map((name) => parseModelRef(name, config.MODEL_PROVIDER))
        .find((ref) => ref.provider === config.MODEL_PROVIDER)?.name ?? model;
    const answers = `${endpoint} answers with ${models.length} model(s)`;
    if (models.includes(wanted)) return { item: "model", status: "pass", detail: `${answers}; ${wanted} is available` };
    // Some servers list no models, or not under the name they accept: worth a look, not a failure.
    return { item: "model", status: "warning", detail: `${answers}; ${wanted} is not in its list (some servers list no models; check the name)` };
  } catch (error) {
    return { item: "model", status: "fail", detail: `${endpoint} did not answer: ${(error as Error).message}` };
  }
}

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

/** Makes console.* do nothing until the returned function is called. */
function muteConsole(): () => void {
  const saved = CONSOLE_METHODS.map((method) => [method, console[method]] as const);
  for (const method of CONSOLE_METHODS) console[method] = () => undefined;
  return () => {
    for (const [method, original] of saved) console[method] = original;
  };
}

const MARKS: Record<Verdict["status"], string> = { pass: "✔", warning: "⚠", fail: "✘" };

export function formatVerdicts(verdicts: Verdict[]): string {
  const lines = verdicts.map((v) => `${MARKS[v.status]} ${v.item}: ${v.detail}`);
  const failed = verdicts.filter((v) => v.status === "fail").length;
  const warnings = verdicts.filter((v) => v.status === "warning").length;
  const warned = warnings === 0 ? "" : `, ${warnings} warning(s)`;
  lines.push(failed === 0 ? `All checks passed${warned}.` : `${failed} check(s) failed${warned}.`);
  return lines.join("\n");
}
