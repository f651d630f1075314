/**
 * Quick messages' own error codes, declared from the feature's folder with `defineErrors`; their pt/en/es texts live
 * in the web's quick messages bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_QUICK_MESSAGE_FOUND: true;
  }
}

export const QUICK_MESSAGE_ERRORS = defineErrors({
  ERR_NO_QUICK_MESSAGE_FOUND: { status: 404, meaning: "no such quick message in the caller's company, or not one the caller may see" },
});
