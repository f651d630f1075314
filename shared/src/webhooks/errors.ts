/** Company webhooks' own error codes; their pt/en/es texts live in the web's webhooks bundle. */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_WEBHOOK_FOUND: true;
    ERR_WEBHOOK_URL_INVALID: true;
    ERR_WEBHOOKS_LIMIT: true;
  }
}

export const WEBHOOK_ERRORS = defineErrors({
  ERR_NO_WEBHOOK_FOUND: { status: 404, meaning: "no such webhook in the caller's company" },
  ERR_WEBHOOK_URL_INVALID: { status: 400, meaning: "the URL is not an absolute https URL (http allowed on one machine), or names a private address" },
  ERR_WEBHOOKS_LIMIT: { status: 400, meaning: "the company already has the most webhooks allowed" },
});
