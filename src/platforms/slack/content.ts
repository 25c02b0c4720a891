import type { Logger } from "../../log.js";
import type { BoundedFetchError } from "../../net/bounded-fetch.js";
import { fetchFromFileHost } from "../../net/file-host.js";
import { FileUnavailable, type AttachmentDescriptor, type FetchedFile, type SharedContentSource } from "../../contract/inbound.js";
import { hasCode } from "../../errors.js";

const MISSING_SCOPE_HINT =
  "Slack did not hand over a shared file: give the app the files:read scope (see src/platforms/slack/manifest.yaml) and reinstall it; until then questions are answered without their files";

/**
 * What turns may fetch from Slack: files from its file host (SLACK_FILES_URL), with the bot token
 * in the Authorization header (which therefore never leaves that host: redirects elsewhere are not
 * followed). Without the files:read scope Slack answers with its sign-in page, or a redirect to
 * it: each such file gets a log line saying what to do, and the model is told it was unavailable.
 * Thread replies are context already, so there is no reply chain to fetch.
 */
export function slackContent(filesUrl: string, botToken: string, logger: Logger): SharedContentSource {
  const host = new URL(filesUrl);
  const refused = (file: AttachmentDescriptor, how: string): FileUnavailable => {
    logger.warn({ file: file.name, how }, MISSING_SCOPE_HINT);
    return new FileUnavailable(`Slack ${how} instead of handing the file over (the app may lack the files:read scope)`);
  };
  return {
    async fetchFile(file, limits, signal) {
      // Slack leaves the address out of some events (files in Slack Connect channels): files.info would have it.
      if (!file.url) throw new FileUnavailable("Slack did not give its address with the message");
      let fetched: FetchedFile;
      try {
        fetched = await fetchFromFileHost(file.url, host, { ...limits, headers: { authorization: `Bearer ${botToken}` } }, signal);
      } catch (error) {
        if (hasCode<BoundedFetchError>(error, "fetch_failed") && error.failure === "redirected") throw refused(file, "sent the download elsewhere");
        throw error;
      }
      if (isSignInPage(fetched, file)) throw refused(file, "answered with its sign-in page");
      return fetched;
    },
  };
}

/** An HTML page where the file is no HTML: Slack's answer to a token without files:read. */
function isSignInPage(fetched: FetchedFile, file: AttachmentDescriptor): boolean {
  if (/html/i.test(file.contentType ?? "")) return false;
  if (/^text\/html/i.test(fetched.contentType ?? "")) return true;
  return /^\s*<(!doctype html|html)/i.test(fetched.bytes.subarray(0, 512).toString("latin1"));
}
