/**
 * Tags' own error codes, declared from the feature's folder with `defineErrors`; their
 * pt/en/es texts live in the web's tags bundle (`web/src/features/tags`).
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_TAG_FOUND: true;
    ERR_TAG_NAME_ALREADY_EXISTS: true;
  }
}

export const TAG_ERRORS = defineErrors({
  ERR_NO_TAG_FOUND: { status: 404, meaning: "no such tag in the caller's company" },
  ERR_TAG_NAME_ALREADY_EXISTS: { status: 409, meaning: "another tag of the company has this name (any letter case)" },
});
