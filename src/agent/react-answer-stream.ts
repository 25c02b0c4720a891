/**
 * What of a text-protocol reply may be shown while it arrives: only the final answer's text, and
 * only where the start of the reply already proves that it is the final answer.
 *
 * - `{"action": "Final Answer", "action_input": "...` at the start (bare or in a ```json fence,
 *   the form the prompt asks for): the string is decoded as it arrives, up to its closing quote.
 * - `Final Answer:` as the first line: the lines after it, each once it is complete, up to a line
 *   that looks like a label ("Action:", "Observation:", ...) or a JSON blob.
 * - Anything else (prose, an action first, reasoning without its end, keys in another order,
 *   single quotes) can only be decided by the parser at the end of the reply: nothing is shown
 *   until the reply is whole. A leading <think>...</think> is skipped once it is closed.
 *
 * Whatever was shown, the parser's answer replaces it at the end of the turn.
 */
export class ReactAnswerStream {
  private buffer = "";
  private state: "undecided" | "json" | "lines" | "off" = "undecided";
  /** Where reading continues in `buffer`. */
  private at = 0;
  private emitted = false;

  constructor(private readonly emit: (text: string) => void) {}

  /** True once some text was shown. */
  get shownAny(): boolean {
    return this.emitted;
  }

  push(delta: string): void {
    if (this.state === "off") return;
    this.buffer += delta;
    if (this.state === "undecided") this.decide();
    if (this.state === "json") this.readJsonString();
    else if (this.state === "lines") this.readLines();
  }

  private decide(): void {
    let body = this.buffer;
    let offset = 0;
    const think = /^\s*<think>/.exec(body);
    if (think) {
      const close = body.indexOf("</think>");
      if (close === -1) return this.undecidedUnless(body.length > MAX_REASONING_CHARS);
      offset = close + "</think>".length;
      body = body.slice(offset);
    }
    const json = JSON_FINAL.exec(body);
    if (json) {
      this.state = "json";
      this.at = offset + json[0].length;
      return;
    }
    const line = FINAL_LINE.exec(body);
    if (line) {
      this.state = "lines";
      this.at = offset + line[0].length;
      return;
    }
    // Still a possible start of one of the two forms: wait for more; otherwise it is decided at the end.
    const trimmed = body.trimStart();
    const possible = trimmed === "" || JSON_FINAL_PREFIX.test(trimmed) || FINAL_LINE_PREFIX.test(trimmed);
    this.undecidedUnless(!possible || body.length > MAX_UNDECIDED_CHARS);
  }

  private undecidedUnless(giveUp: boolean): void {
    if (giveUp) this.state = "off";
  }

  /** Decodes the JSON string from `at`, stopping before an escape that is not complete yet. */
  private readJsonString(): void {
    const s = this.buffer;
    let out = "";
    let i = this.at;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '"') {
        this.state = "off";
        break;
      }
      if (c !== "\\") {
        out += c;
        i++;
        continue;
      }
      if (i + 1 >= s.length) break;
      const e = s[i + 1]!;
      if (e === "u") {
        if (i + 6 > s.length) break;
        const code = Number.parseInt(s.slice(i + 2, i + 6), 16);
        out += Number.isNaN(code) ? s.slice(i, i + 6) : String.fromCharCode(code);
        i += 6;
        continue;
      }
      out += ESCAPES[e] ?? e;
      i += 2;
    }
    this.at = i;
    this.show(out);
  }

  /** Shows each complete line after "Final Answer:", until one looks like scaffolding. */
  private readLines(): void {
    for (;;) {
      const end = this.buffer.indexOf("\n", this.at);
      if (end === -1) return;
      const line = this.buffer.slice(this.at, end);
      if (LABEL_LINE.test(line) || (!this.emitted && /^\s*(```|\{)/.test(line))) {
        this.state = "off";
        return;
      }
      this.show(this.emitted ? `\n${line}` : line.trimStart());
      this.at = end + 1;
    }
  }

  private show(text: string): void {
    if (text === "") return;
    this.emitted = true;
    this.emit(text);
  }
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", '"': '"', "\\": "\\", "/": "/" };
const JSON_FINAL = /^\s*(?:```(?:json)?[ \t]*\n\s*)?\{\s*"action"\s*:\s*"final[ _-]?answer"\s*,\s*"action_input"\s*:\s*"/i;
/** What a reply may look like before it has become JSON_FINAL. */
const JSON_FINAL_PREFIX = /^(?:`{1,3}(?:j(?:s(?:o(?:n)?)?)?)?\s*)?(?:\{[\s\S]{0,60})?$/i;
const FINAL_LINE = /^\s*[*_]{0,2}final[ _-]?answer[*_]{0,2}\s*:[*_]{0,2}[ \t]*/i;
const FINAL_LINE_PREFIX = /^[*_]{0,2}(?:f(?:i(?:n(?:a(?:l(?:[ _-](?:a(?:n(?:s(?:w(?:e(?:r)?)?)?)?)?)?)?)?)?)?)?)?$/i;
const LABEL_LINE = /^\s*[#>*_-]*\s*(?:thoughts?|action(?:[ _]?input)?|observations?|final[ _-]?answer)\s*[*_]{0,2}\s*\d{0,2}\s*:/i;
/** Past this, a reply that has not shown which form it takes is left to the parser. */
const MAX_UNDECIDED_CHARS = 200;
const MAX_REASONING_CHARS = 65_536;
