import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeServer } from "../fakes/close-server.js";
import { reply } from "../fakes/fake-openai.js";
import { FakeHttpProxy } from "../fakes/http-proxy.js";
import { startChildBot } from "../support/child-bot.js";
import { useModelAndFolder } from "../support/model-and-folder.js";

/** A certificate for `name`, made for the test (openssl), which the bot trusts through NODE_EXTRA_CA_CERTS. */
function certificateFor(name: string, dir: string): { key: Buffer; cert: Buffer; certPath: string } {
  const keyPath = join(dir, "key.pem");
  const certPath = join(dir, "cert.pem");
  const request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${name}`, "-addext", `subjectAltName=DNS:${name}`];
  execFileSync("openssl", [...request, "-keyout", keyPath, "-out", certPath], { stdio: "ignore" });
  return { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath };
}

describe("the started bot behind an HTTPS proxy", () => {
  const scratch = useModelAndFolder("agent-bot-proxy-https-");
  let proxy: FakeHttpProxy | undefined;
  let tls: Server | undefined;
  afterEach(async () => {
    await proxy?.close();
    await closeServer(tls);
  });

  it("reaches an https model through a CONNECT tunnel, by a name only the proxy knows", async () => {
    const { key, cert, certPath } = certificateFor("model.internal", scratch.dir);
    // model.internal over TLS: this end decrypts and hands the request to the fake model.
    tls = createServer({ key, cert }, (req, res) => {
      const model = new URL(scratch.model.url);
      const upstream = httpRequest({ host: model.hostname, port: model.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => tls!.listen(0, "127.0.0.1", resolve));
    proxy = await FakeHttpProxy.start();
    proxy.route("model.internal:443", (tls.address() as AddressInfo).port);
    scratch.model.script(reply.text("Hello over TLS, through the proxy."));

    const bot = startChildBot(
      {
        OPENAI_BASE_URL: "https://model.internal/v1",
        OPENAI_MAX_RETRIES: "0",
        DATABASE_PATH: join(scratch.dir, "bot.sqlite"),
        // Both spellings: the lower-case ones win, and the machine's own must not.
        HTTPS_PROXY: proxy.url,
        https_proxy: proxy.url,
        NO_PROXY: "",
        no_proxy: "",
        NODE_EXTRA_CA_CERTS: certPath,
      },
      scratch.dir,
    );
    bot.process.stdin.end("hello\n");
    expect((await bot.exited).code, bot.stderr()).toBe(0);

    expect(bot.stdout()).toContain("bot: Hello over TLS, through the proxy.");
    expect(proxy.seen).toEqual(["CONNECT model.internal:443"]);
    expect(scratch.model.chatRequests).toHaveLength(1);
  });
});
