/**
 * The turn every benchmark part runs: a question, two tool calls, an answer — three model
 * requests. The fake model, the hand-written floor and the checks on replies share these.
 */
export const QUESTION = "What is the circumference of a circle of radius 7.81, and the hypotenuse of a right triangle with sides 3 and 4?";

export const TOOL_CALLS = [
  { id: "call_circumference", name: "circumference", args: { radius: 7.81 } },
  { id: "call_hypotenuse", name: "hypotenuse", args: { adjacent_side: 3, opposite_side: 4 } },
] as const;

export const ANSWER = "The circumference is about 49.07, and the hypotenuse is 5.";

/** Tool steps the sink sees per turn: started and finished for each call. */
export const STEPS_PER_TURN = TOOL_CALLS.length * 2;

export const MODEL_REQUESTS_PER_TURN = TOOL_CALLS.length + 1;
