import { discordPlatform } from "./discord/index.js";
import { slackPlatform } from "./slack/index.js";
import type { ConfigOf, PlatformDefinition } from "../contract/platform.js";
import { terminalPlatform } from "./terminal/index.js";

/** Every platform the bot can join; `npm start` starts each one whose credentials are set, else the terminal. */
export const platformDefinitions = [discordPlatform, slackPlatform, terminalPlatform] as const;

type Shapes = (typeof platformDefinitions)[number]["config"];
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type ConfigOfDefinition<D> = D extends PlatformDefinition<infer Shape> ? ConfigOf<Shape> : never;

/** Every platform's variables, for the one config. */
export const platformConfigSchemas = Object.assign({}, ...platformDefinitions.map((platform) => platform.config)) as Intersect<Shapes>;
export type PlatformConfig = Intersect<ConfigOfDefinition<(typeof platformDefinitions)[number]>>;
