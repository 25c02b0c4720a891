import { createOpenAIClient } from "../agent/providers/openai/client.js";
import { ConfigError, loadConfig, type Config } from "../config/env.js";
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

async function checkModel(config: Config): Promise<Verdict> {
  if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) {
    return { item: "model", ok: false, detail: "set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a local OpenAI-compatible server)" };
  }
  const endpoint = config.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
  return attempt(
    "model",
    async () => {
      const client = createOpenAIClient({
        apiKey: config.OPENAI_API_KEY,
        baseURL: config.OPENAI_BASE_URL,
        timeoutMs: CHECK_TIMEOUT_MS,
      });
      const models: string[] = [];
      for await (const model of client.models.list()) models.push(model.id);
      const listed = models.includes(config.OPENAI_MODEL);
      const note = listed ? `${config.OPENAI_MODEL} is available` : `${config.OPENAI_MODEL} is not in its list (some servers list no models; check the name)`;
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
