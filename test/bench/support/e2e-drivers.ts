import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../../fakes/discord/payloads.js";
import type { FakeSlack } from "../../fakes/slack/fake-slack.js";
import { appMention, eventCallback } from "../../fakes/slack/payloads.js";
import { SignedSlackSender } from "../../fakes/slack/signed-requests.js";
import { isAnswerTo } from "../../support/discord-bot.js";
import { ANSWER, QUESTION } from "./turn-script.js";

/**
 * One platform, driven as its users would, from the fakes' side: an event in, the answer's REST
 * call out, both on the fakes' clock. The bot is another process (started as production starts it).
 */
export interface E2eDriver {
  /** Sends one question in conversation `index`; resolves with ms from sending the event to the fake receiving the answer. */
  event(index: number): Promise<number>;
}

const ANSWER_TIMEOUT_MS = 30_000;

/** Waits for answers by key, fed by the fake's call listener. */
class AnswerWaiters {
  private readonly waiting = new Map<string, (at: number, error?: Error) => void>();

  wait(key: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${key} within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
      this.waiting.set(key, (at, error) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        if (error) reject(error);
        else resolve(at);
      });
    });
  }

  arrived(key: string, at: number, text: unknown): void {
    this.waiting.get(key)?.(at, text === ANSWER ? undefined : new Error(`unexpected answer: ${String(text)}`));
  }
}

/** Channels the Discord driver spreads questions over; they must exist before the bot connects, so it knows them. */
export function addDiscordChannels(discord: FakeDiscord, channels: number): string[] {
  return [discord.general.id, ...Array.from({ length: channels - 1 }, (_, i) => discord.world.addTextChannel(discord.guild.id, `bench-${i}`).id)];
}

/** A mention through the fake gateway to the bot's discord.js Client; the reply to it out. */
export function discordDriver(discord: FakeDiscord, channelIds: string[]): E2eDriver {
  const answers = new AnswerWaiters();
  const questions = new Map<string, MessagePayload>();
  discord.onCall((call) => {
    const questionId = call.body?.message_reference?.message_id;
    const question = questionId && questions.get(questionId);
    if (question && isAnswerTo(call, question)) {
      questions.delete(questionId);
      answers.arrived(questionId, call.at, call.body.content);
    }
  });
  return {
    async event(index) {
      const channelId = channelIds[index % channelIds.length]!;
      const sent = performance.now();
      const question = await discord.dispatchMessage({
        author: discord.member,
        content: `${FakeDiscord.mention(discord.bot)} ${QUESTION}`,
        mentions: [discord.bot],
        channelId,
      });
      questions.set(question.id, question);
      const answered = answers.wait(question.id);
      // the answer may have arrived while the message was being registered
      const early = discord.calls.find((call) => isAnswerTo(call, question));
      if (early) answers.arrived(question.id, early.at, early.body.content);
      return (await answered) - sent;
    },
  };
}

export const SLACK_USER = { id: "UBENCH", name: "alice" };

/**
 * A signed app_mention to the bot's Bolt HTTP receiver at `eventsUrl`; the answer out: its
 * chat.postMessage, or, streamed (STREAM_ANSWERS), the chat.stopStream that ends its stream.
 */
export function slackDriver(slack: FakeSlack, eventsUrl: string, signingSecret: string, channels: number): E2eDriver {
  const sender = new SignedSlackSender(eventsUrl, signingSecret);
  const answers = new AnswerWaiters();
  slack.onCall((call) => {
    // the answer is the thread reply that is not a tool step (steps start with an emoji marker)
    if (call.method === "chat.postMessage" && call.params.thread_ts && call.params.text === ANSWER) {
      answers.arrived(String(call.params.thread_ts), call.at, call.params.text);
    }
    if (call.method === "chat.stopStream" && call.response.ok) {
      // newest first: the stream that just ended is near the end
      const streamed = slack.messages.findLast((message) => message.ts === call.response.ts && message.channel === call.response.channel);
      if (streamed?.threadTs) answers.arrived(streamed.threadTs, call.at, streamed.text);
    }
  });
  return {
    async event(index) {
      const ts = slack.nextTs();
      const answered = answers.wait(ts);
      const sent = performance.now();
      const response = await sender.event(
        eventCallback(appMention({ user: SLACK_USER.id, channel: `CBENCH${index % channels}`, ts, text: `<@${slack.botUserId}> ${QUESTION}` })),
      );
      if (response.status !== 200) throw new Error(`the Slack receiver answered ${response.status}`);
      return (await answered) - sent;
    },
  };
}
