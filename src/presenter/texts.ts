/** What the presenter itself says to users, the same on every platform. */
export const PRESENTER_TEXT = {
  emptyAnswer: "_(The model gave an empty answer. Please try asking differently.)_",
  emptyQuestion: "Hi! Ask me something after the mention, for example: what is the hypotenuse of a 3 by 4 triangle?",
  /** After the part of a streamed answer that was shown, when the turn failed before its end. */
  stoppedHere: (reason: string) => `⚠️ _The answer stopped here._ ${reason}`,
  restInFile: (shown: number, total: number) =>
    `_(The answer is long: the first ${shown} of ${total} parts are above, the whole answer is in the attached file.)_`,
} as const;
