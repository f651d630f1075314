/**
 * Help videos' own error codes, declared from the feature's folder with `defineErrors`; their pt/en/es texts live in
 * the web's helps bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_HELP_FOUND: true;
  }
}

export const HELP_ERRORS = defineErrors({
  ERR_NO_HELP_FOUND: { status: 404, meaning: "no such help video" },
});
