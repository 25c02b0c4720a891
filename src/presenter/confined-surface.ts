import type { ChatSurface, ConfinedReply } from "../contract/surface.js";

/**
 * The platform's surface as a confined answer may use it (see ConfinedReply): every post is a
 * follow-up of the reply and a file one more; no thread, no native stream, no working indicator
 * (the reply itself says the bot is thinking), no approvals (nobody could be shown the buttons).
 */
export function confinedSurface(surface: ChatSurface, reply: ConfinedReply): ChatSurface {
  return {
    platform: surface.platform,
    messageLimit: surface.messageLimit,
    answerInThread: false,
    holdsQuickSteps: surface.holdsQuickSteps,
    offersFeedback: surface.offersFeedback,
    render: (markdown) => surface.render(markdown),
    post: (_to, text, options) => reply.confined.followUp(text, options),
    edit: (message, text, options) => surface.edit(message, text, options),
    ...(surface.remove ? { remove: (message) => surface.remove!(message) } : {}),
    startWorking: () => async () => {},
    postFile: (_to, file) => reply.confined.followUpFile(file),
  };
}
