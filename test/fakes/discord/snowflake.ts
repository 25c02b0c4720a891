const DISCORD_EPOCH = 1_420_070_400_000n;
let increment = 0n;

/** A snowflake whose guild would be on `shard` of `count` shards ((id >> 22) % count). */
export function snowflakeOnShard(shard: number, count: number): string {
  increment = (increment + 1n) & 0xfffn;
  const time = BigInt(Date.now()) - DISCORD_EPOCH;
  const onShard = time - (time % BigInt(count)) + BigInt(shard);
  return ((onShard << 22n) | (1n << 17n) | increment).toString();
}

/** A real-looking, increasing snowflake id (discord.js reads timestamps out of them), of now or of `time` (ms). */
export function snowflake(time = Date.now()): string {
  increment = (increment + 1n) & 0xfffn;
  return (((BigInt(time) - DISCORD_EPOCH) << 22n) | (1n << 17n) | increment).toString();
}
