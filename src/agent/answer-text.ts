/**
 * The answer's text as the model writes it, for a view that shows it while it arrives. `delta`
 * is more text; `retracted` says the text since the last retraction was not the answer after all
 * (it came before tool calls, or a text-protocol reply turned out to be an action), so whoever
 * shows it starts over with what follows.
 */
export type AnswerTextEvent = { type: "delta"; text: string } | { type: "retracted" };

export type AnswerTextSink = (event: AnswerTextEvent) => void;
