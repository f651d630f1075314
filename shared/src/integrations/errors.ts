/**
 * Queue integrations' own error codes, declared from the feature's folder with `defineErrors`; their pt/en/es texts
 * live in the web's integrations bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_INTEGRATION_FOUND: true;
    ERR_INTEGRATION_TEST_FAILED: true;
  }
}

export const INTEGRATION_ERRORS = defineErrors({
  ERR_NO_INTEGRATION_FOUND: { status: 404, meaning: "no such queue integration in the caller's company" },
  ERR_INTEGRATION_TEST_FAILED: { status: 400, meaning: "the provider refused the credentials or did not answer the test session" },
});
