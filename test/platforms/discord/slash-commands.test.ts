import { afterEach, describe, expect, it } from "vitest";
import { registerCommands } from "../../../src/platforms/discord/commands/registration.js";
import { FakeDiscord, type RestCall } from "../../fakes/discord/fake-discord.js";
import { CallbackKind, MessageFlag, type UserPayload } from "../../fakes/discord/payloads.js";
import type { InteractionRecord } from "../../fakes/discord/world.js";
import { reply } from "../../fakes/fake-openai.js";
import { isAnswerTo, isMessagePost, startDiscordBot, type DiscordBot } from "../../support/discord-bot.js";

const isCallback = (call: RestCall, interaction: InteractionRecord) =>
  call.method === "POST" && call.path === `/interactions/${interaction.id}/${interaction.token}/callback`;

/** Runs a settings command and resolves with the ephemeral reply's text. */
async function command(bot: DiscordBot, user: UserPayload, name: string, subcommand: string, options: { name: string; value: string | number }[] = []) {
  const interaction = await bot.discord.dispatchCommand({ user, name, subcommand, options });
  const call = await bot.discord.waitFor((c) => isCallback(c, interaction));
  expect(call.body.type).toBe(CallbackKind.ChannelMessage);
  expect(call.body.data.flags & MessageFlag.Ephemeral).toBe(MessageFlag.Ephemeral);
  expect(call.body.data.allowed_mentions.parse).toEqual([]);
  return call.body.data.content as string;
}

/** Mentions the bot with a question that needs no tool; resolves with the tools offered to the model. */
async function toolsOfferedOnNextTurn(bot: DiscordBot): Promise<string[]> {
  const { discord } = bot;
  const before = bot.model.chatRequests.length;
  bot.model.script(reply.text("ok"));
  const question = await discord.dispatchMessage({ author: discord.member, content: `${FakeDiscord.mention(discord.bot)} hi`, mentions: [discord.bot] });
  await discord.waitFor((call) => isAnswerTo(call, question));
  return bot.model.toolsOffered(before);
}

describe("Discord: /ask", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("defers at once, shows the steps in a thread on its reply, then edits the reply with the answer", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    bot.model.script(reply.toolCalls({ name: "circumference", args: { radius: 2 } }), reply.text("About 12.57."));

    const interaction = await discord.dispatchCommand({
      user: discord.member,
      name: "ask",
      options: [{ name: "question", value: "circumference for radius 2?" }],
    });
    const edit = await discord.waitFor(
      (call) => call.method === "PATCH" && call.path === `/webhooks/${discord.world.application.id}/${interaction.token}/messages/@original`,
    );
    // the answer does not wait for the steps' thread: the turn's end does
    await bot.app.intake.idle();

    // the first call about this interaction acknowledges it (deferred), before any model work shows
    const first = discord.calls.find((call) => call.path.includes(interaction.token))!;
    expect(isCallback(first, interaction)).toBe(true);
    expect(first.body.type).toBe(CallbackKind.DeferredChannelMessage);
    expect(edit.rawPath).toContain("%40original");
    expect(edit.body.content).toBe("About 12.57.");
    expect(edit.body.allowed_mentions.parse).toEqual([]);
    // the steps went into a thread opened on the bot's reply
    const original = discord.world.interactions.get(interaction.id)!.originalId!;
    expect(discord.messagesIn(discord.general.id).find((m) => m.id === original)!.content).toBe("About 12.57.");
    expect(discord.threadsIn(discord.general.id).map((t) => t.id)).toEqual([original]);
    expect(discord.messagesIn(original).map((m) => m.content)).toEqual([expect.stringContaining("12.566")]);
    expect(bot.model.chatRequests[0]!.body.messages.at(-1).content).toBe("circumference for radius 2?");
  });

  it("posts the steps as plain messages where no thread can be made (in a DM), the answer in the reply", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const dm = discord.openDm(discord.member);
    bot.model.script(reply.toolCalls({ name: "calculator", args: { expression: "2+2" } }), reply.text("4."));

    const interaction = await discord.dispatchCommand({ user: discord.member, channelId: dm.id, name: "ask", options: [{ name: "question", value: "2+2?" }] });
    await discord.waitFor((call) => call.method === "PATCH" && call.path.endsWith(`${interaction.token}/messages/@original`) && call.body.content === "4.");

    const steps = discord.calls.filter((call) => isMessagePost(call, dm.id));
    expect(steps).toHaveLength(1);
    expect(steps[0]!.body.content).toContain("calculator");
    expect(steps[0]!.body.allowed_mentions).toMatchObject({ parse: [] });
    // the step is edited in place with the result
    const stepId = discord.messagesIn(dm.id).find((m) => m.content.includes("calculator"))!.id;
    const stepEdit = discord.calls.find((call) => call.method === "PATCH" && call.path.endsWith(`/messages/${stepId}`))!;
    expect(stepEdit.body.content).toMatch(/calculator.*→ `4`/);
    expect(discord.calls.filter((call) => call.path.endsWith("/threads"))).toEqual([]);
  });
});

describe("Discord: /tools", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("refuses /tools disable from a member without Manage Server, says which permission, and changes nothing", async () => {
    bot = await startDiscordBot();
    const text = await command(bot, bot.discord.member, "tools", "disable", [{ name: "tool", value: "calculator" }]);

    expect(text).toMatch(/Manage Server/);
    expect(await toolsOfferedOnNextTurn(bot)).toContain("calculator");
  });

  it("takes an admin's /tools disable into account from the next turn, and /tools list shows it", async () => {
    bot = await startDiscordBot();
    expect(await toolsOfferedOnNextTurn(bot)).toContain("calculator");

    const text = await command(bot, bot.discord.admin, "tools", "disable", [{ name: "tool", value: "calculator" }]);
    expect(text).toBe("`calculator` is now disabled here.");

    const offered = await toolsOfferedOnNextTurn(bot);
    expect(offered).not.toContain("calculator");
    expect(offered).toContain("circumference");
    const list = await command(bot, bot.discord.member, "tools", "list");
    expect(list).toMatch(/⛔ `calculator`/);
    expect(list).toMatch(/✅ `circumference`/);
  });

  it("treats users listed in BOT_ADMIN_USER_IDS as admins without any permission", async () => {
    bot = await startDiscordBot((discord) => ({ BOT_ADMIN_USER_IDS: discord.member.id }));
    const text = await command(bot, bot.discord.member, "tools", "disable", [{ name: "tool", value: "get_time" }]);

    expect(text).toBe("`get_time` is now disabled here.");
    expect(await toolsOfferedOnNextTurn(bot)).not.toContain("get_time");
  });

  it("answers an unknown tool name with the known ones", async () => {
    bot = await startDiscordBot();
    const text = await command(bot, bot.discord.admin, "tools", "enable", [{ name: "tool", value: "teleport" }]);
    expect(text).toMatch(/no tool named `teleport`/);
    expect(text).toMatch(/calculator/);
  });

  it("autocompletes tool names with their state", async () => {
    bot = await startDiscordBot();
    const { discord } = bot;
    const interaction = await discord.dispatchAutocomplete({
      user: discord.admin,
      name: "tools",
      subcommand: "disable",
      options: [{ name: "tool", value: "calc", focused: true }],
    });
    const call = await discord.waitFor((c) => isCallback(c, interaction));

    expect(call.body.type).toBe(CallbackKind.AutocompleteResult);
    expect(call.body.data.choices).toEqual([{ name: "calculator (on)", value: "calculator" }]);
  });
});

describe("Discord: /memory", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("shows the channel's window only to the asker; clearing needs Manage Messages or Manage Server", async () => {
    bot = await startDiscordBot();
    await toolsOfferedOnNextTurn(bot);

    expect(await command(bot, bot.discord.member, "memory", "show")).toMatch(/\*\*alice:\*\* hi/);
    expect(await command(bot, bot.discord.member, "memory", "clear")).toMatch(/Manage Messages/);
    expect(await command(bot, bot.discord.member, "memory", "show")).toMatch(/\*\*alice:\*\* hi/);
    expect(await command(bot, bot.discord.moderator, "memory", "clear")).toMatch(/forgotten/);
    expect(await command(bot, bot.discord.member, "memory", "show")).toMatch(/don't remember anything/);
  });
});

describe("Discord: /settings", () => {
  let bot: DiscordBot;
  afterEach(() => bot?.close());

  it("lets admins set the memory window, extra instructions and channel list, and refuses members", async () => {
    bot = await startDiscordBot();
    await toolsOfferedOnNextTurn(bot);
    await toolsOfferedOnNextTurn(bot);

    expect(await command(bot, bot.discord.member, "settings", "memory", [{ name: "exchanges", value: 1 }])).toMatch(/Manage Server/);
    expect(await command(bot, bot.discord.admin, "settings", "memory", [{ name: "exchanges", value: 1 }])).toBe(
      "I'll remember the last 1 exchanges of each conversation here.",
    );
    expect(await command(bot, bot.discord.admin, "settings", "prompt", [{ name: "text", value: "Answer in French." }])).toMatch(/^Saved/);
    expect(await command(bot, bot.discord.admin, "settings", "channel-add")).toBe(`I now answer only in: <#${bot.discord.general.id}>.`);

    await toolsOfferedOnNextTurn(bot);
    const sent = bot.model.chatRequests.at(-1)!.body.messages;
    expect(sent[0].content).toMatch(/Answer in French\.$/);
    expect(sent.slice(1).map((m: any) => m.content)).toEqual(["hi", "ok", "hi"]);
    expect(await command(bot, bot.discord.member, "settings", "show")).toContain("Memory window: 1 exchanges");
  });
});

describe("Discord: command registration", () => {
  it("registers /ask, /tools, /memory, /settings, /usage and /schedule for one guild or globally, /tools, /settings and /usage for Manage Server only", async () => {
    const discord = await FakeDiscord.start();
    try {
      const guild = await registerCommands({ token: discord.token, apiUrl: discord.apiUrl, guildId: discord.guild.id });
      expect(guild).toMatchObject({
        applicationId: discord.world.application.id,
        scope: "guild",
        names: ["ask", "tools", "memory", "settings", "usage", "schedule"],
      });
      const global = await registerCommands({ token: discord.token, apiUrl: discord.apiUrl });
      expect(global.scope).toBe("global");

      const registered = discord.commands.get(discord.guild.id) as any[];
      const byName = Object.fromEntries(registered.map((c) => [c.name, c]));
      expect(byName.tools.default_member_permissions).toBe((1n << 5n).toString());
      expect(byName.ask.default_member_permissions ?? null).toBeNull();
      const toolOption = byName.tools.options.find((o: any) => o.name === "disable").options[0];
      expect(toolOption).toMatchObject({ name: "tool", autocomplete: true, required: true });
      expect(byName.settings.default_member_permissions).toBe((1n << 5n).toString());
      // settings channel … is a subcommand group; its tools take a state from fixed choices, its model autocompletes
      const channel = byName.settings.options.find((o: any) => o.name === "channel");
      expect(channel).toMatchObject({ type: 2 });
      expect(channel.options.map((o: any) => o.name)).toEqual(["show", "tools", "prompt", "memory", "model", "reset", "memory-summary", "history"]);
      // The summary's switches (issue 24): per server, and per channel over it.
      expect(byName.settings.options.find((o: any) => o.name === "memory-summary").options[0]).toMatchObject({ name: "state", required: true });
      const tools = channel.options.find((o: any) => o.name === "tools");
      expect(tools.options[1]).toMatchObject({
        name: "state",
        required: true,
        choices: [
          { name: "on", value: "on" },
          { name: "off", value: "off" },
          { name: "default", value: "default" },
        ],
      });
      expect(channel.options.find((o: any) => o.name === "model").options[0]).toMatchObject({ name: "model", autocomplete: true });
      expect(byName.tools.options.map((o: any) => o.name)).toEqual(["list", "enable", "disable", "require-approval", "no-approval"]);
      // /usage is one command without subcommands, for admins
      expect(byName.usage.default_member_permissions).toBe((1n << 5n).toString());
      expect(byName.usage.options ?? []).toEqual([]);
      // /schedule is for everyone (who may manage which task is checked per task)
      expect(byName.schedule.default_member_permissions ?? null).toBeNull();
      expect(byName.schedule.options.map((o: any) => o.name)).toEqual(["list", "add", "remove", "pause", "resume", "run", "history"]);
      expect(byName.schedule.options[1].options.map((o: any) => [o.name, o.required])).toEqual([
        ["when", true],
        ["task", true],
      ]);
      expect(discord.commands.get("global")).toHaveLength(6);
    } finally {
      await discord.close();
    }
  });
});
