/** A file part of a multipart request, as text (the bot only ever uploads text files). */
export interface UploadedFile {
  name: string;
  text: string;
}

/**
 * Reads the multipart/form-data body discord.js sends with files: `payload_json` is the message
 * (the same JSON a plain request carries), `files[n]` are the attachments.
 */
export function readMultipart(body: Buffer, contentType: string): { payload: unknown; files: UploadedFile[] } {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return { payload: undefined, files: [] };
  const marker = `--${boundary[1] ?? boundary[2]}`;
  let payload: unknown;
  const files: UploadedFile[] = [];
  for (const part of body.toString("utf8").split(marker).slice(1, -1)) {
    const split = part.indexOf("\r\n\r\n");
    if (split === -1) continue;
    const headers = part.slice(0, split);
    const content = part.slice(split + 4).replace(/\r\n$/, "");
    const name = /name="([^"]+)"/.exec(headers)?.[1];
    const filename = /filename="([^"]*)"/.exec(headers)?.[1];
    if (name === "payload_json") payload = JSON.parse(content);
    else if (filename !== undefined) files.push({ name: filename, text: content });
  }
  return { payload, files };
}
