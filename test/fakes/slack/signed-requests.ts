import { createHmac } from "node:crypto";

/** Slack's request signature: v0= HMAC-SHA256 of "v0:{timestamp}:{body}" with the signing secret. */
function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

export interface SendOptions {
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Sign with this secret instead (a wrong one makes a bad signature). */
  signingSecret?: string;
  /** Send this signature header as is. */
  signature?: string;
  headers?: Record<string, string>;
}

export interface ReceiverResponse {
  status: number;
  body: string;
  ms: number;
}

/** Posts signed requests to a Bolt HTTP receiver, as Slack's Events API and slash commands do. */
export class SignedSlackSender {
  constructor(
    public url: string,
    private readonly signingSecret: string,
  ) {}

  /** An Events API callback (JSON). */
  event(body: unknown, options: SendOptions = {}): Promise<ReceiverResponse> {
    return this.post(JSON.stringify(body), "application/json", options);
  }

  /** An interaction (a button press): the payload as JSON in the form field `payload`, as Slack posts it. */
  interaction(payload: unknown, options: SendOptions = {}): Promise<ReceiverResponse> {
    return this.post(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), "application/x-www-form-urlencoded", options);
  }

  /** A slash command (form-encoded). */
  command(fields: Record<string, string>, options: SendOptions = {}): Promise<ReceiverResponse> {
    return this.post(new URLSearchParams(fields).toString(), "application/x-www-form-urlencoded", options);
  }

  async post(body: string, contentType: string, options: SendOptions = {}): Promise<ReceiverResponse> {
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const signature = options.signature ?? slackSignature(options.signingSecret ?? this.signingSecret, timestamp, body);
    const started = performance.now();
    const response = await fetch(this.url, {
      method: "POST",
      headers: {
        "content-type": contentType,
        "x-slack-request-timestamp": String(timestamp),
        "x-slack-signature": signature,
        ...options.headers,
      },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text, ms: performance.now() - started };
  }
}
