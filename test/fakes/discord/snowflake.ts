const DISCORD_EPOCH = 1_420_070_400_000n;
let increment = 0n;

/** A real-looking, increasing snowflake id (discord.js reads timestamps out of them). */
export function snowflake(): string {
  increment = (increment + 1n) & 0xfffn;
  return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (1n << 17n) | increment).toString();
}
