/**
 * Companies' own error codes (sign-up, password reset, deletion; docs/product/companies.md), declared from the
 * feature's folder with `defineErrors`; their pt/en/es texts live in the web's companies bundle.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_REGISTRATION_DISABLED: true;
    ERR_SIGNUP_FAILED: true;
    ERR_INVALID_RESET_CODE: true;
    ERR_CANNOT_DELETE_OWN_COMPANY: true;
  }
}

export const COMPANY_ERRORS = defineErrors({
  ERR_REGISTRATION_DISABLED: { status: 403, meaning: "the platform does not accept sign-ups now" },
  ERR_SIGNUP_FAILED: { status: 400, meaning: "the sign-up could not create the user (never says whether the email exists)" },
  ERR_INVALID_RESET_CODE: { status: 400, meaning: "the reset code is wrong, expired or used up" },
  ERR_CANNOT_DELETE_OWN_COMPANY: { status: 400, meaning: "a super user cannot delete the company they are logged into" },
});
