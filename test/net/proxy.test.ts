import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/env.js";
import { misspelledVariables } from "../../src/config/misspelled-variables.js";
import { boundedFetch } from "../../src/net/bounded-fetch.js";
import { proxyFor, useProxy } from "../../src/net/proxy.js";
import { answer, FakeHttpServer } from "../fakes/fake-http-server.js";
import { reply } from "../fakes/fake-openai.js";
import { FakeHttpProxy } from "../fakes/http-proxy.js";
import { SlackHarness } from "../support/slack-harness.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const port = (url: string) => Number(new URL(url).port);

describe("the bot's own HTTP behind a proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)", () => {
  let proxy: FakeHttpProxy | undefined;
  let t: TestApp | undefined;
  let service: FakeHttpServer | undefined;
  let slack: SlackHarness | undefined;
  afterEach(async () => {
    await slack?.close();
    slack = undefined;
    await t?.close();
    await service?.close();
    await proxy?.close();
    t = service = proxy = undefined;
    useProxy({});
  });

  it("chooses per address: NO_PROXY names with their subdomains, host:port, IPv6, *", () => {
    useProxy({ HTTPS_PROXY: "http://secure:3128", HTTP_PROXY: "http://plain:3128", NO_PROXY: "internal.example, .corp 10.0.0.5:8080,[::1]" });
    const via = (address: string) => proxyFor(new URL(address));
    expect(via("https://api.openai.com/v1")).toBe("http://secure:3128");
    expect(via("http://api.openai.com/v1")).toBe("http://plain:3128");
    expect(via("https://internal.example/x")).toBeUndefined();
    expect(via("https://a.b.INTERNAL.example/x")).toBeUndefined();
    expect(via("https://notinternal.example/x")).toBe("http://secure:3128");
    expect(via("https://git.corp/x")).toBeUndefined();
    expect(via("http://10.0.0.5:8080/")).toBeUndefined();
    expect(via("http://10.0.0.5:8081/")).toBe("http://plain:3128");
    expect(via("http://[::1]:3000/")).toBeUndefined();

    useProxy({ HTTP_PROXY: "http://plain:3128" });
    expect(via("https://api.openai.com/v1")).toBe("http://plain:3128");
    useProxy({ HTTPS_PROXY: "http://secure:3128", NO_PROXY: "*" });
    expect(via("https://api.openai.com/v1")).toBeUndefined();
    useProxy({});
    expect(via("https://api.openai.com/v1")).toBeUndefined();
  });

  it("sends the model's requests through the proxy, to a name only the proxy knows", async () => {
    proxy = await FakeHttpProxy.start();
    t = await startTestApp({ HTTP_PROXY: proxy.url, OPENAI_BASE_URL: "http://model.internal/v1" });
    proxy.route("model.internal:80", port(t.model.url));
    t.model.script(reply.text("Hello through the proxy."));

    expect(await t.app.runner.submit(request("hi"), new RecordingSink())).toMatchObject({ status: "answered", text: "Hello through the proxy." });
    expect(proxy.seen).toEqual(["POST http://model.internal/v1/chat/completions"]);
  });

  it("reaches a NO_PROXY host directly: the proxy sees nothing", async () => {
    proxy = await FakeHttpProxy.start();
    t = await startTestApp({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" });
    t.model.script(reply.text("Hello directly."));

    expect(await t.app.runner.submit(request("hi"), new RecordingSink())).toMatchObject({ status: "answered", text: "Hello directly." });
    expect(t.model.chatRequests).toHaveLength(1);
    expect(proxy.seen).toEqual([]);
  });

  it("sends Slack's Web API calls through it: the answer is posted by way of the proxy", async () => {
    proxy = await FakeHttpProxy.start();
    slack = await SlackHarness.start({ env: { HTTP_PROXY: proxy.url } });
    slack.slack.addUser({ id: "U1", name: "alice" });
    slack.model.script(reply.text("Hello, Slack, through the proxy."));
    const ts = slack.slack.nextTs();
    await slack.mention({ user: "U1", channel: "C1", ts, text: "hi" });

    const answer = await slack.slack.waitFor(() => slack!.slack.thread("C1", ts)[0], { what: "the answer" });
    expect(answer.text).toBe("Hello, Slack, through the proxy.");
    expect(proxy.seen).toEqual(
      expect.arrayContaining([`POST ${slack.slack.apiUrl}auth.test`, `POST ${slack.slack.apiUrl}chat.postMessage`, `POST ${slack.model.url}/chat/completions`]),
    );
  });

  it("sends the knowledge tools' fetches through it, a form POST too", async () => {
    proxy = await FakeHttpProxy.start();
    service = await FakeHttpServer.start();
    service.route = (served) => answer.text(200, `${served.method} ${served.url.pathname} ${served.body}`);
    proxy.route("search.internal:80", port(service.origin));
    useProxy({ HTTP_PROXY: proxy.url });
    const limits = { headers: { "user-agent": "test" }, timeoutMs: 5_000, maxBytes: 10_000 };

    const got = await boundedFetch({ url: new URL("http://search.internal/w/api.php?q=1"), ...limits }, new AbortController().signal);
    const posted = await boundedFetch(
      { url: new URL("http://search.internal/search"), method: "POST", form: new URLSearchParams({ q: "proxies" }), ...limits },
      new AbortController().signal,
    );

    expect(got.bytes.toString()).toBe("GET /w/api.php ");
    expect(posted.bytes.toString()).toBe("POST /search q=proxies");
    expect(proxy.seen).toEqual(["GET http://search.internal/w/api.php?q=1", "POST http://search.internal/search"]);
  });

  it("reads the lower-case spellings too, warns of none of them, and never shows a proxy's password", () => {
    const config = loadConfig({ OPENAI_API_KEY: "k", https_proxy: "http://proxy.corp:3128", no_proxy: ".corp" });
    expect(config).toMatchObject({ HTTPS_PROXY: "http://proxy.corp:3128", NO_PROXY: ".corp" });
    expect(misspelledVariables({ https_proxy: "http://proxy.corp:3128", http_proxy: "http://proxy.corp:3128", no_proxy: ".corp" })).toEqual([]);

    const bad = () => loadConfig({ OPENAI_API_KEY: "k", HTTPS_PROXY: "socks5://user:hunter2@proxy.corp:1080" });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/HTTPS_PROXY must be a URL such as http:\/\/proxy\.example\.com:3128$/m);
    expect(bad).not.toThrow(/hunter2/);
  });
});
