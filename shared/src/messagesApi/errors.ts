/**
 * The public messages API's own error codes, declared from the feature's folder; their pt/en/es texts live in the
 * web's messages API bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_API_RATE_LIMITED: true;
    ERR_IDEMPOTENCY_KEY_REUSED: true;
    ERR_IDEMPOTENCY_IN_PROGRESS: true;
  }
}

export const MESSAGES_API_ERRORS = defineErrors({
  ERR_API_RATE_LIMITED: { status: 429, meaning: "the connection token sent too many requests in this window (`retryAfterSeconds` beside the code)" },
  ERR_IDEMPOTENCY_KEY_REUSED: { status: 409, meaning: "this Idempotency-Key was used for another request" },
  ERR_IDEMPOTENCY_IN_PROGRESS: { status: 409, meaning: "the first request with this Idempotency-Key is still being sent; retry" },
});
