import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/env.js";
import { createDiscordClient } from "../../../src/platforms/discord/client.js";

const BASE = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", DISCORD_TOKEN: "token" };

describe("Discord shards spread over processes", () => {
  const clients: { destroy(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.destroy();
    delete process.env.SHARDS;
    delete process.env.SHARD_COUNT;
  });

  it("reads DISCORD_SHARD_IDS as a list or ranges, with DISCORD_SHARD_COUNT", () => {
    const config = loadConfig({ ...BASE, DISCORD_SHARD_IDS: "4,0-2", DISCORD_SHARD_COUNT: "6" });
    expect(config.DISCORD_SHARD_IDS).toEqual([0, 1, 2, 4]);
    expect(config.DISCORD_SHARD_COUNT).toBe(6);
    expect(loadConfig(BASE).DISCORD_SHARD_IDS).toBeUndefined();
  });

  it.each([
    [{ DISCORD_SHARD_IDS: "0" }, /DISCORD_SHARD_COUNT must be set too when DISCORD_SHARD_IDS is/],
    [{ DISCORD_SHARD_COUNT: "2" }, /DISCORD_SHARD_IDS must be set too when DISCORD_SHARD_COUNT is/],
    [{ DISCORD_SHARD_IDS: "1,2", DISCORD_SHARD_COUNT: "2" }, /DISCORD_SHARD_IDS must be shard ids from 0 to 1 \(DISCORD_SHARD_COUNT is 2\)/],
    [{ DISCORD_SHARD_IDS: "one", DISCORD_SHARD_COUNT: "2" }, /DISCORD_SHARD_IDS must be shard ids such as "0", "0,1" or "0-3" \(got "one"\)/],
  ])("refuses %o with one line naming the variable", (env, message) => {
    expect(() => loadConfig({ ...BASE, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...BASE, ...env })).toThrow(message);
  });

  it("runs the configured shards, and otherwise leaves the choice to discord.js's ShardingManager", () => {
    const spread = createDiscordClient(loadConfig({ ...BASE, DISCORD_SHARD_IDS: "1", DISCORD_SHARD_COUNT: "2" }));
    clients.push(spread);
    expect(spread.options).toMatchObject({ shards: [1], shardCount: 2 });

    // what the ShardingManager sets in each process it starts
    process.env.SHARDS = "[3]";
    process.env.SHARD_COUNT = "4";
    const managed = createDiscordClient(loadConfig(BASE));
    clients.push(managed);
    expect(managed.options).toMatchObject({ shards: [3], shardCount: 4 });
  });
});
