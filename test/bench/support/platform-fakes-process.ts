import { createInterface } from "node:readline";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import { FakeSlack } from "../../fakes/slack/fake-slack.js";
import { addDiscordChannels, discordDriver, slackDriver, SLACK_USER, type E2eDriver } from "./e2e-drivers.js";
import { runLoad } from "./load.js";
import type { FakesCommand, FakesReady } from "./platform-fakes.js";

// The fake Discord and Slack in a process of their own, so their CPU and garbage collection do not
// count as the bot's. argv: Discord channels to create. Prints a FakesReady line, then answers one
// JSON line per FakesCommand line on stdin; exits when stdin closes.
const channels = Number(process.argv[2] ?? 1);
const discord = await FakeDiscord.start();
const channelIds = addDiscordChannels(discord, channels);
const slack = await FakeSlack.start();
slack.addUser(SLACK_USER);
const drivers: { discord: E2eDriver; slack?: E2eDriver } = { discord: discordDriver(discord, channelIds) };

const ready: FakesReady = {
  discord: { token: discord.token, apiUrl: discord.apiUrl, channelId: channelIds[0]! },
  slack: { botToken: slack.botToken, apiUrl: slack.apiUrl },
};
process.stdout.write(`${JSON.stringify(ready)}\n`);

async function perform(command: FakesCommand): Promise<unknown> {
  if (command.op === "slack-target") {
    drivers.slack = slackDriver(slack, command.eventsUrl, command.signingSecret, channels);
    return {};
  }
  const driver = drivers[command.platform];
  if (!driver) throw new Error(`no ${command.platform} driver yet (send slack-target first)`);
  if (command.op === "events") {
    const calls = () => (command.platform === "discord" ? discord.calls.length : slack.calls.length);
    const callsBefore = calls();
    const latencies: number[] = [];
    for (let i = 0; i < command.count; i++) {
      const started = performance.now();
      latencies.push(await driver.event(i));
      const rest = command.spacingMs - (performance.now() - started);
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
    return { latencies, restCalls: calls() - callsBefore };
  }
  return runLoad((conversation) => driver.event(Number(conversation)).then(() => undefined), {
    turns: command.turns,
    width: command.width,
    conversation: (worker) => String(worker),
  });
}

// One command at a time, in order: the parent waits for each answer anyway.
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const command = JSON.parse(line) as FakesCommand;
  const answer = await perform(command).then(
    (result) => ({ id: command.id, result }),
    (error: Error) => ({ id: command.id, error: error.stack ?? String(error) }),
  );
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await discord.close();
await slack.close();
process.exit(0);
