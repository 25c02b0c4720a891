import type { AppOptions } from "../../src/app.js";
import { FakeAnthropic } from "../fakes/fake-anthropic.js";
import type { ReceivedQuestion, RecordedRequest, Responder } from "../fakes/fake-openai.js";
import { startTestApp, type TestApp } from "./test-app.js";

/** What a scenario reads of either fake model server, whichever API it speaks. */
interface FakeModelServer {
  readonly chatRequests: RecordedRequest[];
  script(...responders: Responder[]): unknown;
  otherwise(responder: Responder): unknown;
  question(index: number): ReceivedQuestion;
  toolsOffered(index: number): string[];
  toolCallIds(index: number): string[];
  toolResults(index: number): { callId: string; content: string }[];
}

export type ProviderTestApp = Omit<TestApp, "model"> & { model: FakeModelServer };

export interface ProviderUnderTest {
  name: "openai" | "anthropic";
  /** The request field that carries the text protocol's stop sequences. */
  stopField: string;
  start(env?: Record<string, string>, options?: Omit<AppOptions, "store">): Promise<ProviderTestApp>;
}

/** The app with its default model on each provider, each against its own fake server on 127.0.0.1. */
export const providers: ProviderUnderTest[] = [
  { name: "openai", stopField: "stop", start: (env = {}, options = {}) => startTestApp(env, options) },
  {
    name: "anthropic",
    stopField: "stop_sequences",
    async start(env = {}, options = {}) {
      const model = await FakeAnthropic.start();
      // The OpenAI fake startTestApp starts too goes unused: no model names the openai provider.
      const t = await startTestApp({ MODEL_PROVIDER: "anthropic", ANTHROPIC_BASE_URL: model.url, ANTHROPIC_MODEL: "claude-test", ...env }, options);
      return {
        ...t,
        model,
        async close() {
          await t.close();
          await model.close();
        },
      };
    },
  },
];
