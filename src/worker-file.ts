/**
 * A worker thread's entry, beside the module that starts it. Run as TypeScript (tsx, vitest) the
 * module's own URL ends in .ts and the entry is its source file; built (`npm run build`), every
 * module is a flat file of dist/ and the entry's bundle lies beside it under its built name.
 */
export function workerFile(moduleUrl: string, names: { source: string; built: string }): URL {
  return new URL(moduleUrl.endsWith(".ts") ? names.source : names.built, moduleUrl);
}
