import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { App, AppOptions } from "../../src/app.js";
import type { Logger } from "../../src/log.js";
import { SlackAdapter, type SlackAdapterOptions } from "../../src/platforms/slack/slack-adapter.js";
import { servicesFor } from "../../src/start-platforms.js";
import { FakeSlack, type FakeSlackOptions } from "../fakes/slack/fake-slack.js";
import type { FakeWorkspace } from "../fakes/slack/installs.js";
import type { FakeMessage } from "../fakes/slack/messages.js";
import { appMention, blockActions, eventCallback, message, slashCommand, type MessageFields } from "../fakes/slack/payloads.js";
import { SignedSlackSender } from "../fakes/slack/signed-requests.js";
import { startTestApp, type TestApp } from "./test-app.js";

const SIGNING_SECRET = "test-signing-secret";

/** The OAuth client the fake Slack knows, for distribution mode. */
export const OAUTH_CLIENT = { id: "fake-client-id", secret: "fake-client-secret" };

/** Distribution mode's variables: no bot token, the OAuth client, a fresh SECRETS_KEY. */
export const distributionEnv = (): Record<string, string> => ({
  SLACK_BOT_TOKEN: "",
  SLACK_CLIENT_ID: OAUTH_CLIENT.id,
  SLACK_CLIENT_SECRET: OAUTH_CLIENT.secret,
  SLACK_STATE_SECRET: "state-secret-for-the-tests",
  SECRETS_KEY: randomBytes(32).toString("base64"),
});

export interface SlackHarnessOptions {
  env?: Record<string, string>;
  mode?: "http" | "socket";
  fake?: FakeSlackOptions;
  adapter?: SlackAdapterOptions;
  /** Passed to the app (e.g. extra tools). */
  app?: AppOptions;
  /** The app and the adapter log here instead of to a silent logger. */
  logger?: Logger;
}

/** The workspace (and Enterprise Grid organisation) a command or press comes from; T1 alone unless given. */
export interface SlackFrom {
  teamId?: string;
  enterpriseId?: string;
}

/**
 * The real app and the real Bolt adapter against a fake model and a fake Slack on 127.0.0.1.
 * HTTP mode listens on a free port; Socket Mode connects to the fake's WebSocket.
 */
export class SlackHarness {
  adapter!: SlackAdapter;
  /** The running app; a new one after restart(). */
  app: App;
  readonly sender: SignedSlackSender;

  private constructor(
    readonly t: TestApp,
    readonly slack: FakeSlack,
    private readonly options: SlackHarnessOptions,
  ) {
    this.app = t.app;
    this.sender = new SignedSlackSender("", SIGNING_SECRET);
  }

  static async start(options: SlackHarnessOptions = {}): Promise<SlackHarness> {
    const slack = await FakeSlack.start(options.fake);
    const t = await startTestApp(
      {
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_API_URL: slack.apiUrl,
        SLACK_FILES_URL: slack.filesHost.baseUrl,
        ...(options.mode === "socket" ? { SLACK_APP_TOKEN: slack.appToken } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
        ...options.env,
      },
      options.app,
      options.logger,
    );
    const harness = new SlackHarness(t, slack, options);
    await harness.startAdapter();
    return harness;
  }

  get model() {
    return this.t.model;
  }

  /** Stops the adapter and builds a new app and adapter on the same database, as a restarted process. */
  /** Resolves once every message delivered so far has been dealt with (its turn answered). */
  idle(): Promise<void> {
    return this.app.intake.idle();
  }

  async restart(): Promise<void> {
    // As the process does on SIGTERM: running turns finish or stop (a wait for approval stops at once).
    await this.app.runner.shutdown(500);
    await this.idle();
    await this.adapter.stop();
    this.app = await this.t.restart();
    await this.startAdapter();
  }

  /** Sends an event the way Slack does in this mode (signed HTTP request, or Socket Mode envelope). */
  async deliver(event: Record<string, unknown>, envelope: Parameters<typeof eventCallback>[1] = {}): Promise<Record<string, unknown>> {
    const body = eventCallback(event, envelope);
    if (this.options.mode === "socket") {
      await this.slack.sendEnvelope(body, "events_api");
    } else {
      const response = await this.sender.event(body);
      if (response.status !== 200) throw new Error(`the receiver answered ${response.status}`);
    }
    return body;
  }

  mention(fields: Omit<MessageFields, "text"> & { text: string }): Promise<Record<string, unknown>> {
    return this.deliver(appMention({ ...fields, text: `<@${this.slack.botUserId}> ${fields.text}` }));
  }

  message(fields: MessageFields): Promise<Record<string, unknown>> {
    return this.deliver(message(fields));
  }

  /**
   * A user presses a button of a bot message (Block Kit): a signed `block_actions` request, or an
   * `interactive` Socket Mode envelope. Resolves once Bolt acknowledged it.
   */
  async press(userId: string, posted: FakeMessage, actionId: string, from: SlackFrom = {}): Promise<void> {
    // The buttons as posted: a client may still show them after an update took them away.
    const button = posted.postedBlocks.flatMap((block) => block.elements ?? []).find((element: any) => element.action_id === actionId);
    if (!button) throw new Error(`no button ${actionId} on the message ${posted.ts}`);
    const payload = blockActions({
      userId,
      channel: posted.channel,
      message: { ts: posted.ts, threadTs: posted.threadTs, text: posted.text, blocks: posted.postedBlocks },
      actionId,
      value: button.value,
      responseUrl: this.slack.responseUrl(),
      ...from,
    });
    await this.sendAction(payload);
  }

  /**
   * A user presses 👍 ("up") or 👎 ("down") of the feedback buttons a message shows now (Slack's
   * feedback_buttons element: the payload carries the pressed button's value). Resolves once acknowledged.
   */
  async pressFeedback(userId: string, shown: FakeMessage, vote: "up" | "down", from: SlackFrom = {}): Promise<void> {
    const element = shown.blocks.flatMap((block) => block.elements ?? []).find((candidate: any) => candidate.type === "feedback_buttons");
    if (!element) throw new Error(`no feedback buttons on the message ${shown.ts}`);
    const payload = blockActions({
      userId,
      channel: shown.channel,
      message: { ts: shown.ts, threadTs: shown.threadTs, text: shown.text, blocks: shown.blocks },
      actionId: element.action_id,
      actionType: "feedback_buttons",
      value: (vote === "up" ? element.positive_button : element.negative_button).value,
      responseUrl: this.slack.responseUrl(),
      ...from,
    });
    await this.sendAction(payload);
  }

  /** An interaction payload, as a signed request or an `interactive` Socket Mode envelope; resolves once acknowledged. */
  private async sendAction(payload: Record<string, unknown>): Promise<void> {
    if (this.options.mode === "socket") {
      await this.slack.sendEnvelope(payload, "interactive");
      return;
    }
    const response = await this.sender.interaction(payload);
    if (response.status !== 200) throw new Error(`the receiver answered ${response.status}`);
  }

  /** Runs a slash command; resolves with the ephemeral answers posted to its response_url. */
  async command(command: string, text: string, userId: string, channelId = "C1", from: SlackFrom = {}): Promise<{ status: number; responseUrl: string }> {
    const responseUrl = this.slack.responseUrl();
    const fields = slashCommand({ command, text, userId, channelId, responseUrl, ...from });
    if (this.options.mode === "socket") {
      await this.slack.sendEnvelope(fields, "slash_commands");
      return { status: 200, responseUrl };
    }
    const response = await this.sender.command(fields);
    return { status: response.status, responseUrl };
  }

  /**
   * Distribution mode: someone installs the app in `workspace` as a browser would. The install
   * page (its state cookie and "Add to Slack" link), Slack's approval (a code), then the redirect.
   */
  async install(workspace: FakeWorkspace): Promise<{ page: string; status: number; body: string }> {
    const base = this.adapter.serverUrl;
    if (!base) throw new Error("the adapter has no HTTP server");
    const installPage = await fetch(`${base}/slack/install`);
    const page = await installPage.text();
    const cookie = installPage.headers.get("set-cookie")?.split(";")[0] ?? "";
    const state = /[?&;]state=([^&"']+)/.exec(page)?.[1];
    if (!state) throw new Error(`no state on the install page: ${page.slice(0, 200)}`);
    const code = this.slack.installs.grantCode(workspace);
    const redirect = await fetch(`${base}/slack/oauth_redirect?code=${encodeURIComponent(code)}&state=${state}`, { headers: { cookie } });
    return { page, status: redirect.status, body: await redirect.text() };
  }

  /** The ephemeral answers posted to a response_url, waiting for at least one. */
  async answersAt(responseUrl: string): Promise<string[]> {
    const path = new URL(responseUrl).pathname;
    await this.slack.waitFor(() => this.slack.responses.some((r) => r.path === path), { what: `an answer at ${path}` });
    return this.slack.responses.filter((r) => r.path === path).map((r) => String(r.body.text));
  }

  async close(): Promise<void> {
    await this.idle();
    await this.adapter.stop();
    await this.t.close();
    await this.slack.close();
  }

  private async startAdapter(): Promise<void> {
    const services = servicesFor(this.app, { streams: { input: new PassThrough(), output: new PassThrough() } });
    this.adapter = new SlackAdapter(this.options.logger ? { ...services, logger: this.options.logger } : services, {
      clientOptions: { retryConfig: { retries: 0 } },
      listen: { port: 0, host: "127.0.0.1" },
      ...this.options.adapter,
    });
    await this.adapter.start();
    if (this.adapter.eventsUrl) this.sender.url = this.adapter.eventsUrl;
  }
}
