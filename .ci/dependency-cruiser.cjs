/**
 * The layering rules (issue "One platform contract"): the core never imports a platform;
 * platforms get narrow services, never the store or the composition root; no import cycles,
 * type-only imports included.
 */
module.exports = {
  forbidden: [
    {
      name: "core-imports-no-platform",
      comment: "The agent, attachments, net, tools, store, runner and presenter know nothing of Discord, Slack or the terminal.",
      severity: "error",
      from: { path: "^src/(agent|attachments|net|tools|store|runner|presenter|contract|scheduler)/" },
      to: { path: "^src/platforms/" },
    },
    {
      name: "scheduler-above-the-core",
      comment:
        "The scheduler (issue 26) runs tasks through the runner and the store; the core below it imports only its WHEN reading (src/scheduler/when.ts), never the scheduler itself.",
      severity: "error",
      from: { path: "^src/(agent|attachments|net|tools|store|runner|presenter)/" },
      to: { path: "^src/scheduler/(?!when\\.ts$)" },
    },
    {
      name: "platforms-import-no-store-or-root",
      comment: "Platforms talk to the core through their PlatformLink only.",
      severity: "error",
      from: { path: "^src/platforms/" },
      to: { path: "^src/(store/|app\\.ts$|main\\.ts$|start-platforms\\.ts$)" },
    },
    {
      name: "platforms-import-no-sdk-of-another",
      comment: "Each platform's SDK is loaded only by its own folder, when that platform starts.",
      severity: "error",
      from: { path: "^src/(?!platforms/discord/)" },
      to: { path: "node_modules/discord\\.js/" },
    },
    {
      name: "slack-sdk-only-in-slack",
      severity: "error",
      from: { path: "^src/(?!platforms/slack/)" },
      to: { path: "node_modules/@slack/" },
    },
    {
      name: "postgres-client-only-in-its-store",
      comment: "Only the PostgreSQL store talks to pg; the rest of the bot sees the Store interface (and starts without loading pg on SQLite).",
      severity: "error",
      from: { path: "^src/(?!store/postgres/)" },
      to: { path: "node_modules/pg/" },
    },
    {
      name: "openai-sdk-only-in-its-provider",
      comment: "The agent loop speaks the model seam (src/agent/model.ts); only the OpenAI provider talks to the openai client.",
      severity: "error",
      from: { path: "^src/(?!agent/providers/openai/)" },
      to: { path: "node_modules/openai/" },
    },
    {
      name: "anthropic-sdk-only-in-its-provider",
      comment: "Only the Anthropic provider talks to @anthropic-ai/sdk (loaded only when a configured model names it).",
      severity: "error",
      from: { path: "^src/(?!agent/providers/anthropic/)" },
      to: { path: "node_modules/@anthropic-ai/" },
    },
    {
      name: "opentelemetry-only-in-tracing",
      comment: "Only src/ops/tracing.ts imports OpenTelemetry (loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set).",
      severity: "error",
      from: { path: "^src/(?!ops/tracing\\.ts$)" },
      to: { path: "node_modules/@opentelemetry/" },
    },
    {
      name: "agent-knows-no-runner",
      comment: "The agent loop is below the runner: it gets a request, tools and callbacks.",
      severity: "error",
      from: { path: "^src/agent/" },
      to: { path: "^src/(runner|presenter|store)/" },
    },
    {
      name: "runner-is-above-presenter-and-attachments",
      comment:
        "The runner uses the presenter and the attachments reader; they never import the runner (what they share with it is in src/contract/), so the three folders have no cycle between them.",
      severity: "error",
      from: { path: "^src/(presenter|attachments)/" },
      to: { path: "^src/runner/" },
    },
    {
      name: "presenter-and-attachments-apart",
      comment: "What users see and what a question shares are two jobs; neither imports the other.",
      severity: "error",
      from: { path: "^src/(presenter|attachments)/" },
      to: { path: "^src/(presenter|attachments)/", pathNot: "^src/$1/" },
    },
    {
      name: "contract-depends-on-no-implementation",
      comment:
        "src/contract/ is what platforms and the core both depend on: the inbound message, the surface, the link, the platform definition, the turn view, the commands. It imports nothing of the bot but itself, the logger's type and the errors' base (src/log.ts, src/errors.ts).",
      severity: "error",
      from: { path: "^src/contract/" },
      to: { path: "^src/", pathNot: "^src/(contract/|log\\.ts$|errors\\.ts$)" },
    },
    {
      name: "errors-and-log-import-no-folder",
      comment: "src/errors.ts and src/log.ts sit below every folder (the contract included), so they import none of them.",
      severity: "error",
      from: { path: "^src/(errors|log)\\.ts$" },
      to: { path: "^src/[^/]+/" },
    },
    {
      name: "console-goes-through-the-core",
      comment:
        "The operator's console (src/console/) reads and changes things through the core's services: the commands the slash commands run, the store's reads. It never imports a platform, a platform's SDK or the composition root.",
      severity: "error",
      from: { path: "^src/console/" },
      to: { path: "^src/(platforms/|app\\.ts$|main\\.ts$|start-platforms\\.ts$)|node_modules/(discord\\.js|@slack)/" },
    },
    {
      name: "core-knows-no-console",
      comment: "The console is above the core: nothing of the core or the platforms imports it (main.ts starts it).",
      severity: "error",
      from: { path: "^src/(agent|attachments|net|tools|store|runner|presenter|contract|scheduler|platforms)/" },
      to: { path: "^src/console/" },
    },
    {
      name: "no-circular",
      comment: "No import cycles, type-only ones included.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
