import { parseModelRef } from "../agent/model-ref.js";
import { openModelCatalog } from "../agent/providers/open-catalog.js";
import { ConfigError, loadConfig, type Config } from "../config/env.js";
import { modelChoices, providerConnections } from "../config/models.js";
import { storeSettingsOf } from "../config/store-settings.js";
import { platformDefinitions } from "../platforms/index.js";
import { silentLogger } from "../log.js";
import { openStore } from "../store/open-store.js";
import { redactUrl } from "../store/redact-url.js";
import type { Store } from "../store/store.js";
import { processEnvironment } from "../config/environment.js";

/** `npm run doctor`: checks what the bot needs, one verdict per item, without starting the bot. */

export interface Verdict {
  item: string;
  ok: boolean;
  detail: string;
}

const CHECK_TIMEOUT_MS = 10_000;

export async function runDoctor(env: NodeJS.ProcessEnv = processEnvironment()): Promise<Verdict[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    const detail = error instanceof ConfigError ? error.message.replace(/^Configuration error:\n\s*/, "") : String(error);
    return [{ item: "configuration", ok: false, detail }];
  }
  const verdicts: Verdict[] = [{ item: "configuration", ok: true, detail: "every variable is valid" }];
  verdicts.push(await checkDatabase(config));
  verdicts.push(await checkModel(config));
  for (const platform of platformDefinitions) {
    if (platform.fallback || !platform.configured(config)) continue;
    const { checkCredentials } = await platform.load();
    if (checkCredentials) verdicts.push(await attempt(`${platform.name} token`, () => withTimeout(checkCredentials(config))));
  }
  return verdicts;
}

async function checkDatabase(config: Config): Promise<Verdict> {
  const where = config.DATABASE_URL ? redactUrl(config.DATABASE_URL) : config.DATABASE_PATH;
  let store: Store | undefined;
  try {
    store = await openStore(storeSettingsOf(config, silentLogger(), { poolSize: 1, timeoutMs: CHECK_TIMEOUT_MS }));
    const report = await store.inspect();
    if (report.problem) return { item: "database", ok: false, detail: report.problem };
    return { item: "database", ok: true, detail: `${report.location} at schema version ${report.schemaVersion}, ${report.turns} turns recorded` };
  } catch (error) {
    return { item: "database", ok: false, detail: `cannot open ${where}: ${(error as Error).message}` };
  } finally {
    await store?.close();
  }
}

/** The default model's provider: is it configured, does it answer, does it list the default model. */
async function checkModel(config: Config): Promise<Verdict> {
  const anthropic = config.MODEL_PROVIDER === "anthropic";
  if (anthropic ? !config.ANTHROPIC_API_KEY && !config.ANTHROPIC_BASE_URL : !config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) {
    const detail = anthropic
      ? "set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a gateway that needs no key)"
      : "set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a local OpenAI-compatible server)";
    return { item: "model", ok: false, detail };
  }
  const endpoint = anthropic ? (config.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com") : (config.OPENAI_BASE_URL ?? "https://api.openai.com/v1");
  const model = anthropic ? config.ANTHROPIC_MODEL : config.OPENAI_MODEL;
  return attempt(
    "model",
    async () => {
      const catalog = await openModelCatalog([], config.MODEL_PROVIDER, providerConnections(config, CHECK_TIMEOUT_MS));
      const models = await catalog.primary.listModels();
      // The first model of this provider that turns may use: the default, unless OPENAI_MODELS begins with another provider's.
      const wanted =
        modelChoices(config)
          .map((name) => parseModelRef(name, config.MODEL_PROVIDER))
          .find((ref) => ref.provider === config.MODEL_PROVIDER)?.name ?? model;
      const listed = models.includes(wanted);
      const note = listed ? `${wanted} is available` : `${wanted} is not in its list (some servers list no models; check the name)`;
      return `${endpoint} answers with ${models.length} model(s); ${note}`;
    },
    (error) => `${endpoint} did not answer: ${(error as Error).message}`,
  );
}

async function attempt(item: string, check: () => Promise<string>, explain = (error: unknown) => (error as Error).message): Promise<Verdict> {
  try {
    return { item, ok: true, detail: await check() };
  } catch (error) {
    return { item, ok: false, detail: explain(error) };
  }
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS).unref()),
  ]);
}

export function formatVerdicts(verdicts: Verdict[]): string {
  const lines = verdicts.map((v) => `${v.ok ? "✔" : "✘"} ${v.item}: ${v.detail}`);
  const failed = verdicts.filter((v) => !v.ok).length;
  lines.push(failed === 0 ? "All checks passed." : `${failed} check(s) failed.`);
  return lines.join("\n");
}
