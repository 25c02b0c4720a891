import { XMLParser } from "fast-xml-parser";
import { netFetch } from "../../../net/proxied-fetch.js";
import type { RateTable } from "../../../store/currency-rates.js";

const MAX_BYTES = 256 * 1024;

/**
 * Parses the ECB's eurofxref-daily.xml: an Envelope > Cube > Cube[time] > Cube[currency, rate] tree.
 * Throws on anything else rather than returning half a table.
 */
export function parseEcbDailyXml(xml: string): RateTable {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", removeNSPrefix: true });
  // biome-ignore lint/suspicious/noExplicitAny: the parsed XML is walked with optional chaining and checked field by field below
  let doc: any;
  try {
    doc = parser.parse(xml, true);
  } catch (error) {
    throw new Error(`the rate feed is not valid XML (${(error as Error).message.split("\n")[0]})`);
  }
  const day = doc?.Envelope?.Cube?.Cube;
  const dayCube = Array.isArray(day) ? day[0] : day;
  const date = dayCube?.time;
  const entries = dayCube?.Cube;
  if (typeof date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(date) || entries === undefined) {
    throw new Error("the rate feed does not have the ECB daily format");
  }
  const rates: Record<string, number> = {};
  for (const entry of Array.isArray(entries) ? entries : [entries]) {
    const rate = Number(entry?.rate);
    if (typeof entry?.currency === "string" && /^[A-Z]{3}$/.test(entry.currency) && rate > 0) {
      rates[entry.currency] = rate;
    }
  }
  if (Object.keys(rates).length === 0) throw new Error("the rate feed lists no rates");
  return { date, rates };
}

export async function fetchEcbRates(url: string, signal: AbortSignal): Promise<RateTable> {
  const response = await netFetch(url, { signal, headers: { "user-agent": "agent-bot currency tool" } });
  if (!response.ok) throw new Error(`the rate feed answered HTTP ${response.status}`);
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > MAX_BYTES) throw new Error("the rate feed is unexpectedly large");
  const text = await response.text();
  if (text.length > MAX_BYTES) throw new Error("the rate feed is unexpectedly large");
  return parseEcbDailyXml(text);
}
