/**
 * Whether the model is shown images. VISION=auto goes by the model's name: a server that gets an
 * image part it cannot read fails the whole request, so an unknown name counts as text only.
 */

/** Names (or parts of names) of models that read images, as OpenAI and local servers spell them. */
const SEES_IMAGES = [
  /gpt-4o/,
  /gpt-4\.1/,
  /gpt-4\.5/,
  /gpt-4-turbo/,
  /gpt-4-vision/,
  /gpt-5/,
  /(^|\/)o[134](?!-mini)(\b|-|$)/,
  /(^|\/)o4-mini/,
  /claude-(3|sonnet|opus|haiku)/,
  /gemini/,
  /gemma-?3/,
  /llava/,
  /llama-?3\.2.*vision/,
  /llama-?4/,
  /qwen.*-?vl/,
  /minicpm-v/,
  /moondream/,
  /pixtral/,
  /mistral-small-?3\.[12]/,
  /granite.*vision/,
  /internvl/,
  /-vision\b/,
];

/** Model names that match the list above but do not read images. */
const TEXT_ONLY = [/gpt-4o.*(audio|realtime|transcribe|tts|search)/, /embedding/];

function modelSeesImages(model: string): boolean {
  const name = model.toLowerCase();
  return SEES_IMAGES.some((pattern) => pattern.test(name)) && !TEXT_ONLY.some((pattern) => pattern.test(name));
}

/** VISION on or auto for a known model, and the native protocol (the text ReAct protocol sends text only). */
export function visionEnabled(setting: "auto" | "on" | "off", model: string, protocol: "tools" | "react"): boolean {
  if (protocol === "react" || setting === "off") return false;
  return setting === "on" || modelSeesImages(model);
}
