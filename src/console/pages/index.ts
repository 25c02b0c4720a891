import type { PageHandler } from "../context.js";
import { approvals, decideApproval } from "./approvals.js";
import { overview, overviewJson } from "./overview.js";
import { scheduleAction, schedules } from "./schedules.js";
import { saveSettings, settingsPage } from "./settings.js";
import { turnList, turnPage } from "./turns.js";
import { usage, usageCsv } from "./usage.js";

interface Route {
  get?: PageHandler;
  post?: PageHandler;
}

/** Every page of the console by path; "/turns/" pages are one turn each. */
const PAGES: Readonly<Record<string, Route>> = {
  "/": { get: overview },
  "/overview.json": { get: overviewJson },
  "/usage": { get: usage },
  "/usage.csv": { get: usageCsv },
  "/turns": { get: turnList },
  "/turns/": { get: turnPage },
  "/schedules": { get: (context) => schedules(context), post: scheduleAction },
  "/settings": { get: settingsPage, post: saveSettings },
  "/approvals": { get: (context) => approvals(context), post: decideApproval },
};

export const routeOf = (path: string): Route | undefined => PAGES[path] ?? (path.startsWith("/turns/") && path.length > 7 ? PAGES["/turns/"] : undefined);
