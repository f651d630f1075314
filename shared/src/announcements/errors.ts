/**
 * Announcements' own error codes, declared from the feature's folder with `defineErrors`; their pt/en/es texts live
 * in the web's announcements bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_ANNOUNCEMENT_FOUND: true;
  }
}

export const ANNOUNCEMENT_ERRORS = defineErrors({
  ERR_NO_ANNOUNCEMENT_FOUND: { status: 404, meaning: "no such announcement, or an inactive one asked for by a user who is not super" },
});
