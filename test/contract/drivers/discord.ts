import { COMMANDS, GROUPS } from "../../../src/runner/commands/catalog.js";
import { FakeDiscord, type RestCall } from "../../fakes/discord/fake-discord.js";
import { MessageFlag, MessageKind, type MessagePayload, type UserPayload } from "../../fakes/discord/payloads.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";
import { fileAnswer } from "../../fakes/file-host.js";
import { eventually, SEEN_TIMEOUT_MS, type DriverFactory, type PlatformDriver, type Presser, type Seen, type Sent, type ShownApproval } from "./driver.js";

interface DiscordSent extends Sent {
  message: MessagePayload;
}

/** Discord's limit on a message's content. */
const DISCORD_LIMIT = 2_000;

/**
 * The real discord.js Client and Discord adapter against the fake Discord. Alice is a plain
 * member of the server, Bob an admin (a role with Manage Server); messages are read back from the
 * fake's channels as users see them (edits applied, messages only their user sees left out).
 */
export const discordDriver: DriverFactory = {
  name: "discord",
  can: { redelivery: true, edits: true, otherSenders: true, members: true, restarts: true },
  async start(env = {}, options = {}) {
    const bot = await startDiscordBot(env, options);
    const { discord } = bot;
    let otherBot: UserPayload | undefined;
    const stranger = discord.world.addUser("eve");
    discord.world.addMember(discord.guild.id, stranger.id);
    const users: Record<Presser, UserPayload> = { asker: discord.member, admin: discord.admin, stranger };
    const approvalsSeen = new Set<string>();
    const sent = (message: MessagePayload, text: string): DiscordSent => ({ message, text });

    const driver: PlatformDriver = {
      model: bot.model,
      messageLimit: DISCORD_LIMIT,
      adminPermission: /Manage Server/,
      async ask(text) {
        return sent(
          await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} ${text}`, mentions: [discord.bot] }),
          text,
        );
      },
      async askWithFiles(text, files) {
        const attachments = files.map((file) =>
          discord.attachment(file.name, fileAnswer.bytes(file.bytes, file.contentType), { contentType: file.contentType }),
        );
        return sent(
          await discord.dispatchMessage({
            author: discord.member,
            content: `${FakeDiscord.mention(discord.bot)} ${text}`,
            mentions: [discord.bot],
            attachments,
          }),
          text,
        );
      },
      async followUp(first, text) {
        // The bot's thread on a message has the message's id.
        return sent(await discord.dispatchMessage({ author: discord.member, channelId: (first as DiscordSent).message.id, content: text }), text);
      },
      async deliverAgain(question) {
        // A running client drops repeats of messages it has cached; Discord replays events to a new
        // session (a reconnect, a restart), and then only the bot's own records can tell.
        await bot.restart();
        await discord.redeliver((question as DiscordSent).message);
      },
      async edit(question, text) {
        const message = (question as DiscordSent).message;
        const edited = { ...message, content: `${FakeDiscord.mention(discord.bot)} ${text}`, edited_timestamp: new Date().toISOString() };
        discord.world.channelMessages(message.channel_id).set(message.id, edited);
        await discord.dispatch("MESSAGE_UPDATE", edited);
      },
      async askAsOtherBot(text) {
        otherBot ??= addOtherBot(discord);
        await discord.dispatchMessage({ author: otherBot, content: `${FakeDiscord.mention(discord.bot)} ${text}`, mentions: [discord.bot] });
      },
      async systemMessage(first) {
        const threadId = (first as DiscordSent).message.id;
        await discord.dispatchMessage({ author: discord.member, channelId: threadId, content: "", type: MessageKind.ChannelPinnedMessage });
      },
      async command(text, as) {
        const [group = "", ...rest] = text.split(" ");
        const subcommandGroup = COMMANDS.some((command) => command.group === group && command.subgroup === rest[0]) ? rest.shift() : undefined;
        const bare = GROUPS.find((candidate) => candidate.name === group)?.bare === true;
        // A group alone means its first subcommand, as in the text form ("settings" shows the settings).
        const name = bare ? "" : (rest.shift() ?? COMMANDS.find((command) => command.group === group)?.name ?? "");
        const spec = COMMANDS.find((command) => command.group === group && command.name === name && command.subgroup === subcommandGroup);
        if (!spec) throw new Error(`no command "${text}" in the catalog`);
        const value = (i: number, kind: string) => (kind === "text" ? rest.slice(i).join(" ") : kind === "integer" ? Number(rest[i]) : rest[i]!);
        const options = spec.options.flatMap((option, i) => (rest[i] === undefined ? [] : [{ name: option.name, value: value(i, option.kind) }]));
        const user = as === "admin" ? discord.admin : discord.member;
        const interaction = await discord.dispatchCommand({ user, name: group, subcommand: bare ? undefined : name, subcommandGroup, options });
        const callback = await discord.callbackOf(interaction, SEEN_TIMEOUT_MS);
        return String(callback.body.data.content);
      },
      async approval() {
        const found = await eventually(
          () => botMessages(bot).find((m) => !approvalsSeen.has(m.id) && bot.discord.world.postedWithComponents.has(m.id)),
          "a request for approval with buttons",
        );
        approvalsSeen.add(found.id);
        return discordApproval(bot, structuredClone(found), users);
      },
      restart: () => bot.restart(),
      app: () => bot.app,
      async seen(question) {
        const message = (question as DiscordSent).message;
        await discord.waitFor((call: RestCall) => isAnswerTo(call, message), SEEN_TIMEOUT_MS);
        await bot.app.intake.idle();
        return seenFor(bot, message);
      },
      firstAnswerAt: (sent) => discord.calls.find((call) => isAnswerTo(call, (sent as DiscordSent).message))?.at,
      shown: () => botMessages(bot).map((m) => m.content),
      shows: (markdown) => markdown,
      close: () => bot.close(),
    };
    return driver;
  },
};

/** A request for approval on Discord: a message with Approve and Deny buttons (message components). */
function discordApproval(bot: DiscordBot, shown: MessagePayload, users: Record<Presser, UserPayload>): ShownApproval {
  const now = () => bot.discord.messagesIn(shown.channel_id).find((m) => m.id === shown.id) ?? shown;
  const buttons = (shown.components as { components: { custom_id: string; label: string }[] }[]).flatMap((row) => row.components);
  return {
    text: () => now().content,
    hasControls: () => now().components.length > 0,
    async press(decision, who) {
      const button = buttons.find((candidate) => candidate.label.toLowerCase() === decision);
      if (!button) throw new Error(`no ${decision} button on the request`);
      const interaction = await bot.discord.pressButton({ user: users[who], message: shown, customId: button.custom_id });
      const callback = await bot.discord.callbackOf(interaction, SEEN_TIMEOUT_MS);
      // UPDATE_MESSAGE changes the request for everyone; a reply with the ephemeral flag is for the presser alone.
      return (callback.body.data.flags & MessageFlag.Ephemeral) !== 0 ? String(callback.body.data.content) : "";
    },
  };
}

function addOtherBot(discord: FakeDiscord): UserPayload {
  const other = discord.world.addUser("helper-bot", true);
  discord.world.addMember(discord.guild.id, other.id);
  return other;
}

const isShownBy = (bot: DiscordBot) => (m: MessagePayload) => m.author.id === bot.discord.bot.id && (m.flags & MessageFlag.Ephemeral) === 0;

/** Every message of the bot that everyone sees, in the order it was created (snowflakes grow). */
function botMessages(bot: DiscordBot): MessagePayload[] {
  const all = [...bot.discord.world.messages.values()].flatMap((channel) => [...channel.values()]);
  return all.filter(isShownBy(bot)).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

/**
 * Steps go in the thread the bot opens on a top-level question (the thread has the question's id)
 * or next to the question; the answer starts with the reply to the question and runs on until
 * someone else writes there.
 */
function seenFor(bot: DiscordBot, question: MessagePayload): Seen {
  const shown = isShownBy(bot);
  const place = bot.discord.messagesIn(question.channel_id).filter((m) => (m.flags & MessageFlag.Ephemeral) === 0);
  const after = place.slice(place.findIndex((m) => m.id === question.id) + 1);
  const reply = after.findIndex((m) => m.message_reference?.message_id === question.id && shown(m));
  const answerAndAfter = after.slice(reply);
  const answerEnd = answerAndAfter.findIndex((m) => !shown(m));
  const answer = answerEnd === -1 ? answerAndAfter : answerAndAfter.slice(0, answerEnd);
  const thread = bot.discord.messagesIn(question.id);
  const threadEnd = thread.findIndex((m) => !shown(m));
  const inThread = threadEnd === -1 ? thread : thread.slice(0, threadEnd);
  return {
    steps: [...inThread, ...after.slice(0, reply)].filter(shown).map((m) => m.content),
    answer: answer.map((m) => m.content),
  };
}
