import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import { message, MessageKind, type MessagePayload } from "../../fakes/discord/payloads.js";
import { snowflake } from "../../fakes/discord/snowflake.js";
import { reply } from "../../fakes/fake-openai.js";
import { fileAnswer, PNG_BYTES } from "../../fakes/file-host.js";
import { isAnswerTo, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

/** Discord's recorded reply to the bot's message (d09): the shape a reply really has on the gateway. */
const D09 = JSON.parse(readFileSync(new URL("../../fixtures/replay-payloads/discord/d09-reply-ping-to-bot.json", import.meta.url), "utf8"));

describe("Discord: what people share with a question", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  const ask = async (fields: { content?: string; attachments?: unknown[]; channelId?: string; extra?: Partial<MessagePayload> }) => {
    const { discord } = bot;
    const question = await discord.dispatchMessage({
      author: discord.member,
      content: `${FakeDiscord.mention(discord.bot)} ${fields.content ?? ""}`.trim(),
      mentions: [discord.bot],
      ...fields,
    });
    await discord.waitFor((call) => isAnswerTo(call, question));
    await bot.app.intake.idle();
    return question;
  };

  it("names an image without fetching it when VISION=off", async () => {
    bot = await startDiscordBot({ VISION: "off" });
    const image = bot.discord.attachment("screenshot.png", fileAnswer.bytes(PNG_BYTES, "image/png"), { contentType: "image/png", size: 1_258_291 });

    await ask({ content: "what is on this screenshot?", attachments: [image] });

    expect(bot.model.question(0)).toEqual({
      text: "what is on this screenshot?\n[image: screenshot.png, 1.2 MB — not shown, this model reads text only]",
      images: [],
    });
    expect(bot.discord.cdn.requests).toEqual([]);
  });

  it("treats an image with no text as a question", async () => {
    bot = await startDiscordBot();
    const image = bot.discord.attachment("chart.png", fileAnswer.bytes(PNG_BYTES, "image/png"), { contentType: "image/png" });

    await ask({ attachments: [image] });

    expect(bot.model.question(0)).toEqual({
      text: "[image: chart.png, 70 bytes — attached as image 1]",
      images: [{ mediaType: "image/png", bytes: PNG_BYTES }],
    });
  });

  it("reads the replied-to message of a recorded reply (d09's shape), its image shown to the model", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const image = discord.attachment("image.png", fileAnswer.bytes(PNG_BYTES, "image/png"), { contentType: "image/png" });
    const payload = structuredClone(D09);
    Object.assign(payload, { id: snowflake(), channel_id: discord.general.id, guild_id: discord.guild.id });
    payload.message_reference = { channel_id: discord.general.id, message_id: payload.referenced_message.id, guild_id: discord.guild.id };
    Object.assign(payload.referenced_message, { channel_id: discord.general.id, author: discord.bot, attachments: [image] });
    payload.mentions = payload.mentions.map((user: { username: string }) => (user.username === "survivalmodee" ? discord.bot : user));
    discord.world.channelMessages(discord.general.id).set(payload.referenced_message.id, payload.referenced_message);
    discord.world.channelMessages(discord.general.id).set(payload.id, payload);

    await discord.dispatch("MESSAGE_CREATE", payload);
    await discord.waitFor((call) => isAnswerTo(call, payload));

    expect(bot.model.question(0)).toEqual({
      text: "[The message this replies to, from you (this bot):]\nwas ist das?\n[image: image.png, 70 bytes — attached as image 1]\n\n@NoRisk @Tom 💀",
      images: [{ mediaType: "image/png", bytes: PNG_BYTES }],
    });
    // Discord sent the replied-to message along: nothing was asked of its API.
    expect(discord.calls.filter((call) => call.method === "GET" && call.path.includes("/messages/"))).toEqual([]);
  });

  it("follows a reply chain through Discord's API, up to MAX_REPLY_CHAIN messages", async () => {
    bot = await startDiscordBot({ MAX_REPLY_CHAIN: "2" });
    const { discord } = bot;
    const channel = discord.general.id;
    const posted = (fields: Partial<MessagePayload> & Pick<MessagePayload, "author" | "content">) => {
      const created = message({ id: snowflake(), channel_id: channel, guild_id: discord.guild.id, ...fields });
      discord.world.channelMessages(channel).set(created.id, created);
      return created;
    };
    const replyTo = (earlier: MessagePayload) => ({
      type: MessageKind.Reply,
      message_reference: { message_id: earlier.id, channel_id: channel, guild_id: discord.guild.id, type: 0 as const },
    });
    const log = discord.attachment("deploy.log", fileAnswer.text("ERROR: disk full on /var"), { contentType: "text/plain; charset=utf-8" });
    const first = posted({ author: discord.moderator, content: "deploys are frozen until Friday" });
    const second = posted({ author: discord.member, content: "the deploy failed, log attached", attachments: [log], ...replyTo(first) });
    const third = posted({ author: discord.bot, content: "Which step failed?", ...replyTo(second) });

    await ask({ content: "see the log: why?", extra: { ...replyTo(third), referenced_message: third } });

    expect(bot.model.question(0).text).toBe(
      [
        "[An earlier message it follows, from alice:]",
        "the deploy failed, log attached",
        "[text file: deploy.log, text/plain, 24 bytes]",
        "ERROR: disk full on /var",
        "[end of deploy.log]",
        "",
        "[The message this replies to, from you (this bot):]",
        "Which step failed?",
        "",
        "see the log: why?",
      ].join("\n"),
    );
    const fetched = discord.calls.filter((call) => call.method === "GET" && call.path.startsWith(`/channels/${channel}/messages/`)).map((call) => call.path);
    expect(fetched).toEqual([`/channels/${channel}/messages/${second.id}`]);
  });

  it("reads a forwarded message (its snapshot's text and file) in a direct message", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const dm = discord.openDm(discord.member);
    const notes = discord.attachment("notes.md", fileAnswer.text("# Plan\n- ship on Monday", "text/markdown; charset=utf-8"), {
      contentType: "text/markdown; charset=utf-8",
    });
    const original = snowflake();
    const forward = await discord.dispatchMessage({
      author: discord.member,
      channelId: dm.id,
      content: "",
      extra: {
        message_reference: { type: 1, message_id: original, channel_id: discord.general.id, guild_id: discord.guild.id },
        message_snapshots: [
          {
            message: {
              type: 0,
              content: "Can we still ship on Monday?",
              attachments: [notes],
              embeds: [],
              timestamp: new Date().toISOString(),
              edited_timestamp: null,
              flags: 0,
              mentions: [],
              mention_roles: [],
              components: [],
            },
          },
        ],
      },
    });
    await discord.waitFor(
      (call) => call.method === "POST" && call.path === `/channels/${dm.id}/messages` && call.body?.message_reference?.message_id === forward.id,
    );

    expect(bot.model.question(0).text).toBe(
      [
        "[A forwarded message:]",
        "Can we still ship on Monday?",
        "[text file: notes.md, text/markdown, 23 bytes]",
        "# Plan\n- ship on Monday",
        "[end of notes.md]",
      ].join("\n"),
    );
  });

  it("answers from what arrived when files are too large, refused, not what they claim, or too slow, and says why for each", async () => {
    bot = await startDiscordBot({ MAX_IMAGE_BYTES: "1000", ATTACHMENT_TIMEOUT_MS: "1500" });
    const { discord } = bot;
    bot.model.script(reply.text("Only the first image made it."));
    const png = { contentType: "image/png", size: 70 };
    const files = [
      discord.attachment("fine.png", fileAnswer.bytes(PNG_BYTES, "image/png"), png),
      discord.attachment("huge.png", fileAnswer.bytes(PNG_BYTES, "image/png"), { ...png, size: 10_000_000_000 }),
      discord.attachment("liar.png", fileAnswer.endless(), { ...png, size: 70 }),
      discord.attachment("gone.png", fileAnswer.status(403), png),
      discord.attachment("fake.png", fileAnswer.text("<html>not an image</html>", "text/html"), png),
      discord.attachment("slow.png", fileAnswer.slow(), png),
      discord.attachment("bomb.txt", fileAnswer.bytes(Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.alloc(4096)]), "text/plain"), {
        contentType: "text/plain",
      }),
      discord.attachment("report.pdf", fileAnswer.bytes(Buffer.from("%PDF-1.7"), "application/pdf"), { contentType: "application/pdf" }),
    ];

    await ask({ content: "what do these show?", attachments: files });

    expect(bot.model.question(0)).toEqual({
      text: [
        "what do these show?",
        "[image: fine.png, 70 bytes — attached as image 1]",
        "[image: huge.png, 9.3 GB — not shown: larger than the 1000 bytes limit for images]",
        "[image: liar.png, 70 bytes — unavailable: it is larger than the 1000 bytes limit]",
        "[image: gone.png, 70 bytes — unavailable: the file host answered HTTP 403 (the link may have expired)]",
        "[image: fake.png, 70 bytes — unavailable: its content is not the image it claims to be]",
        "[image: slow.png, 70 bytes — unavailable: it did not arrive within 1.5 s]",
        "[text file: bomb.txt, text/plain, 4 KB — not read: its content is not text]",
        "[file: report.pdf, application/pdf, 8 bytes — not read: only images and text files are]",
      ].join("\n"),
      images: [{ mediaType: "image/png", bytes: PNG_BYTES }],
    });
    expect(discord.cdn.requestsFor(files[1]!.url as string)).toEqual([]);
    expect(discord.cdn.requestsFor(files[7]!.url as string)).toEqual([]);
  });

  it("never fetches an address pasted in the text, even one on its own CDN", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const pasted = discord.cdn.serve("secret.png", fileAnswer.bytes(PNG_BYTES, "image/png"));

    await ask({ content: `what is in ${pasted} and ![chart](${pasted})?` });

    expect(bot.model.question(0)).toEqual({ text: `what is in ${pasted} and ![chart](${pasted})?`, images: [] });
    expect(discord.cdn.requests).toEqual([]);
  });
});
