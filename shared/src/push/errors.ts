/** Push notifications' own error codes; their pt/en/es texts live in the web's push bundle. */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_PUSH_ENDPOINT_INVALID: true;
  }
}

export const PUSH_ERRORS = defineErrors({
  ERR_PUSH_ENDPOINT_INVALID: { status: 400, meaning: "the subscription's endpoint is not a known push service's (the loopback stand-in only on one machine)" },
});
