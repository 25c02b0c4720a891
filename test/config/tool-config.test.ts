import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";

describe("configuration of the knowledge tools, plugins and MCP servers", () => {
  it("defaults to the public services, English Wikipedia, ./tools and no MCP servers", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      WIKIPEDIA_API_URL: "https://{lang}.wikipedia.org/w/api.php",
      WIKIPEDIA_LANG: "en",
      ARXIV_API_URL: "https://export.arxiv.org/api/query",
      DUCKDUCKGO_URL: "https://html.duckduckgo.com/html/",
      KNOWLEDGE_TIMEOUT_MS: 8000,
      TOOLS_DIR: "./tools",
    });
    expect(config.SEARXNG_URL).toBeUndefined();
    expect(config.MCP_CONFIG).toBeUndefined();
    expect(config.DEFAULT_TOOLS).toEqual(expect.arrayContaining(["wikipedia", "arxiv", "web_search"]));
  });

  it("names each bad variable and what it expects", () => {
    expect(() => loadConfig({ WIKIPEDIA_LANG: "en/../../x", WIKIPEDIA_API_URL: "ftp://{lang}.example.org", SEARXNG_URL: "not a url" })).toThrowError(
      /WIKIPEDIA_LANG must be a Wikipedia language code such as en, de or zh-yue \(got "en\/..\/..\/x"\)\n\s+WIKIPEDIA_API_URL must be an http\(s\) URL, optionally with \{lang\}/,
    );
    expect(() => loadConfig({ SEARXNG_URL: "not a url" })).toThrowError(/SEARXNG_URL must be a URL/);
  });
});
