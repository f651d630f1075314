/** File lists' own error codes (texts in the web's file lists bundle). */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_FILE_LIST_FOUND: true;
  }
}

export const FILE_LIST_ERRORS = defineErrors({
  ERR_NO_FILE_LIST_FOUND: { status: 404, meaning: "no such file list (or option of it) in the caller's company" },
});
