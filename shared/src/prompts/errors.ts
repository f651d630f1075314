/**
 * Prompts' own error codes, declared from the feature's folder with `defineErrors`; their pt/en/es texts live in the
 * web's prompts bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_PROMPT_FOUND: true;
  }
}

export const PROMPT_ERRORS = defineErrors({
  ERR_NO_PROMPT_FOUND: { status: 404, meaning: "no such prompt in the caller's company" },
});
