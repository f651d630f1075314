/**
 * Scheduled messages' own error codes, declared from the feature's folder with `defineErrors`; their pt/en/es texts
 * live in the web's schedules bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_SCHEDULE_FOUND: true;
    ERR_SCHEDULE_ALREADY_SENT: true;
  }
}

export const SCHEDULE_ERRORS = defineErrors({
  ERR_NO_SCHEDULE_FOUND: { status: 404, meaning: "no such scheduled message in the caller's company" },
  ERR_SCHEDULE_ALREADY_SENT: { status: 409, meaning: "the scheduled message was sent (or is being sent): it can no longer be changed" },
});
