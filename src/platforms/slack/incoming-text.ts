/**
 * A message as Slack delivers it, made readable for the model: links become "label (url)",
 * channel links "#name", broadcasts "@here", and the &amp; &lt; &gt; escapes are undone.
 * User mentions stay as <@U…>, which is how the model can address someone back.
 */
export function slackTextToPlain(text: string): string {
  const readable = text.replace(/<([^<>]+)>/g, (match, inner: string) => {
    const [target, label] = inner.split("|", 2) as [string, string | undefined];
    if (target.startsWith("@")) return match;
    if (target.startsWith("#")) return label ? `#${label}` : target;
    if (target.startsWith("!")) {
      if (target.startsWith("!date^")) return label ?? target;
      return `@${label?.replace(/^@/, "") ?? target.slice(1).split("^")[0]}`;
    }
    return label && label !== target ? `${label} (${target})` : target;
  });
  return readable.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}
