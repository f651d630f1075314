/**
 * Queues' own error codes (duplicate names, colours that are not CSS colours, and the options'),
 * declared from the feature's folder with `defineErrors`; their pt/en/es texts live in the web's queues bundle
 * (`web/src/features/queues/i18n.ts`, `errors.<CODE>`).
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_QUEUE_NAME_ALREADY_EXISTS: true;
    ERR_QUEUE_INVALID_COLOR: true;
    ERR_NO_QUEUE_OPTION_FOUND: true;
    ERR_QUEUE_MEDIA_REQUIRED: true;
  }
}

export const QUEUE_ERRORS = defineErrors({
  ERR_QUEUE_NAME_ALREADY_EXISTS: { status: 409, meaning: "another queue of the company has this name (any letter case)" },
  ERR_QUEUE_INVALID_COLOR: { status: 400, meaning: "the queue colour is not a CSS colour (`fields: [{path: \"color\"}]`)" },
  ERR_NO_QUEUE_OPTION_FOUND: { status: 404, meaning: "no such queue option in the caller's company (or not in that queue)" },
  ERR_QUEUE_MEDIA_REQUIRED: { status: 400, meaning: "a media upload without a file (multipart field `medias` or `file`)" },
});
