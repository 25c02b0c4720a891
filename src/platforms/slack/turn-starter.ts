import type { App } from "../../app.js";
import { KeyedQueue } from "../../runner/keyed-queue.js";
import { conversationKey } from "../../runner/turn-runner.js";
import type { TurnReply, TurnRequest } from "../../runner/types.js";
import type { BotThreads } from "./bot-threads.js";
import { SlackReplySink } from "./reply-sink.js";
import type { TurnPlan } from "./routing.js";
import type { SlackApi } from "./slack-api.js";
import type { SlackUsers } from "./slack-users.js";

const EMPTY_MENTION_HINT = "Hi! Ask me something after the mention, e.g. _What is the circumference of a circle of radius 7.81?_";

/** Turns a plan (from an event or /ask) into a queued turn with its Slack sink, without waiting for the answer. */
export class TurnStarter {
  private readonly inFlight = new Set<Promise<TurnReply>>();
  /** The Slack calls before a turn is queued are awaited in arrival order per conversation, so turns keep that order. */
  private readonly arrivals = new KeyedQueue();

  constructor(
    private readonly app: App,
    private readonly api: SlackApi,
    private readonly users: SlackUsers,
    private readonly threads: BotThreads,
  ) {}

  start(plan: TurnPlan): Promise<void> {
    return this.arrivals.run(conversationKey(plan.conversation), () => this.queue(plan));
  }

  private async queue(plan: TurnPlan): Promise<void> {
    if (plan.remember) {
      this.threads.remember(plan.conversation.workspaceId, plan.channel, plan.remember.threadTs, plan.remember.scope);
    }
    if (plan.text === "") {
      await this.api.postMessage({ channel: plan.channel, threadTs: plan.threadTs, text: EMPTY_MENTION_HINT });
      return;
    }
    const person = await this.users.lookup(plan.userId);
    const sink = new SlackReplySink(
      this.api,
      {
        channel: plan.channel,
        threadTs: plan.threadTs,
        answerInThread: plan.answerInThread,
        broadcast: this.app.config.SLACK_BROADCAST_ANSWER,
        reactTo: plan.messageTs,
        stepStartDelayMs: this.app.config.STEP_START_DELAY_MS,
      },
      this.app.logger,
    );
    await sink.begin();
    const request: TurnRequest = { ...plan.conversation, userId: plan.userId, userName: person.name, text: plan.text, isAdmin: person.isAdmin };
    const turn = this.app.runner.submit(request, sink).then(async (reply) => {
      if (reply.status === "ignored") await sink.end();
      return reply;
    });
    this.inFlight.add(turn);
    void turn.finally(() => this.inFlight.delete(turn));
  }

  /** Resolves once every turn started so far has replied. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
