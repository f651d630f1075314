/**
 * Internal chat's own error codes, declared from the feature's folder with `defineErrors`; their pt/en/es texts live
 * in the web's chats bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_CHAT_FOUND: true;
  }
}

export const CHAT_ERRORS = defineErrors({
  ERR_NO_CHAT_FOUND: { status: 404, meaning: "no such chat in the caller's company, or one the caller is not a member of" },
});
