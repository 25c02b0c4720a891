import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log.js";
import { SqliteCurrencyRates } from "../../src/store/sqlite/small-tables.js";
import { openDatabase } from "../../src/store/sqlite/database.js";
import { parseEcbDailyXml } from "../../src/tools/builtin/currency/ecb-rates.js";
import { createCurrencyTool } from "../../src/tools/builtin/currency/currency-tool.js";
import type { Tool, ToolContext } from "../../src/tools/define-tool.js";

const ECB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
  <Cube>
    <Cube time='2026-11-27'>
      <Cube currency='USD' rate='1.1000'/>
      <Cube currency='JPY' rate='170.00'/>
      <Cube currency='GBP' rate='0.8500'/>
    </Cube>
  </Cube>
</gesmes:Envelope>`;

const ctx: ToolContext = {
  signal: new AbortController().signal,
  request: { platform: "test", workspaceId: "w", channelId: "c", userId: "u" },
  logger: silentLogger(),
  llm: async () => "",
};

describe("the currency tool", () => {
  let server: Server;
  let feedUrl: string;
  let feedRequests = 0;
  let feedStatus = 200;
  let store: SqliteCurrencyRates;

  beforeEach(async () => {
    feedRequests = 0;
    feedStatus = 200;
    server = createServer((_req, res) => {
      feedRequests++;
      res.writeHead(feedStatus, { "content-type": "text/xml" });
      res.end(feedStatus === 200 ? ECB_XML : "<html>Service Unavailable</html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-daily.xml`;
    store = new SqliteCurrencyRates(openDatabase(":memory:"));
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const run = async (tool: Tool, args: unknown) => {
    const parsed = tool.parseArgs(args);
    if (!parsed.ok) throw new Error(parsed.error);
    return tool.run(parsed.value, ctx);
  };

  it("converts at the feed's rates and says which day they are from", async () => {
    const tool = createCurrencyTool({ store, ratesUrl: feedUrl });
    expect(await run(tool, { amount: 10.5, from: "EUR", to: "USD" })).toBe("10.5 EUR = 11.55 USD (ECB reference rate of 2026-11-27)");
    // cross rate through the euro, lower-case codes accepted
    expect(await run(tool, { amount: 170, from: "jpy", to: "gbp" })).toBe("170 JPY = 0.85 GBP (ECB reference rate of 2026-11-27)");
  });

  it("caches the rates in the database instead of fetching for every call", async () => {
    const tool = createCurrencyTool({ store, ratesUrl: feedUrl });
    await run(tool, { amount: 1, from: "EUR", to: "USD" });
    await run(tool, { amount: 2, from: "EUR", to: "USD" });
    expect(feedRequests).toBe(1);
    expect(await store.get("ecb")).toMatchObject({ date: "2026-11-27", rates: { USD: 1.1 } });
  });

  it("falls back to the bundled snapshot when the feed is down and nothing is cached", async () => {
    feedStatus = 503;
    const tool = createCurrencyTool({ store, ratesUrl: feedUrl });
    const text = await run(tool, { amount: 100, from: "EUR", to: "USD" });
    expect(text).toBe("100 EUR = 112.25 USD (ECB reference rate of 2026-10-02; offline: bundled ECB snapshot)");
  });

  it("lists the valid codes when a code is unknown", async () => {
    const tool = createCurrencyTool({ store, ratesUrl: feedUrl });
    await expect(run(tool, { amount: 1, from: "EUR", to: "XYZ" })).rejects.toThrow('unknown currency code "XYZ". Valid codes: EUR, GBP, JPY, USD');
  });

  it("rejects a code that is not three letters before fetching anything", () => {
    const tool = createCurrencyTool({ store, ratesUrl: feedUrl });
    expect(tool.parseArgs({ amount: 1, from: "euro", to: "USD" }).ok).toBe(false);
  });

  it("refuses a feed that is not the ECB format", () => {
    expect(() => parseEcbDailyXml("<html><body>hello</body></html>")).toThrow(/ECB daily format/);
  });
});
