import { ConfigError, loadConfig, loadDotEnv } from "../config/env.js";
import { storeSettingsOf } from "../config/store-settings.js";
import { silentLogger } from "../log.js";
import { openStore } from "../store/open-store.js";
import { SealedInstallations } from "../store/sealed-installations.js";
import { SecretBox } from "../store/secrets.js";
import { parseCommandLine } from "./command-line.js";
import { hasCode } from "../errors.js";

parseCommandLine({
  command: "npm run rotate-secrets",
  summary:
    "Re-encrypts every stored installation token with SECRETS_KEY. Rotate a key in three steps: set SECRETS_KEY_PREVIOUS to the old key and SECRETS_KEY to a new one (`openssl rand -base64 32`) and restart the bot (both keys then decrypt); run this; then unset SECRETS_KEY_PREVIOUS.",
  options: {},
  examples: ["npm run rotate-secrets"],
});

loadDotEnv();
try {
  const config = loadConfig();
  if (!config.SECRETS_KEY) throw new ConfigError("SECRETS_KEY is not set: there is no key to re-encrypt with.");
  const box = new SecretBox(config.SECRETS_KEY, config.SECRETS_KEY_PREVIOUS);
  const store = await openStore(storeSettingsOf(config, silentLogger(), { poolSize: 2 }));
  try {
    const report = await new SealedInstallations(store.installations, box).rotate();
    process.stdout.write(`Re-encrypted ${report.resealed} installation(s) with SECRETS_KEY; ${report.current} already were.\n`);
    if (report.unreadable.length > 0) {
      process.stderr.write(
        `Neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS opens ${report.unreadable.length} installation(s), left as they are: ${report.unreadable.join(", ")}. Set SECRETS_KEY_PREVIOUS to the key that sealed them, or reinstall those workspaces.\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    await store.close();
  }
} catch (error) {
  process.stderr.write(`${hasCode(error, "config_invalid") ? error.message : `Rotating the secrets failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}
