/** Contact lists' own error codes (texts in the web's contact lists bundle). */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_CONTACT_LIST_FOUND: true;
    ERR_NO_CONTACT_LIST_ITEM_FOUND: true;
    ERR_CONTACT_LIST_ITEM_DUPLICATED: true;
    ERR_INVALID_PHONE_NUMBER: true;
    ERR_IMPORT_FILE_TYPE: true;
    ERR_IMPORT_FILE_UNREADABLE: true;
  }
}

export const CONTACT_LIST_ERRORS = defineErrors({
  ERR_NO_CONTACT_LIST_FOUND: { status: 404, meaning: "no such contact list in the caller's company" },
  ERR_NO_CONTACT_LIST_ITEM_FOUND: { status: 404, meaning: "no such contact list item in the caller's company" },
  ERR_CONTACT_LIST_ITEM_DUPLICATED: { status: 409, meaning: "the list already holds this number" },
  ERR_INVALID_PHONE_NUMBER: { status: 400, meaning: "the number is not a phone number (country code, area code, number)" },
  ERR_IMPORT_FILE_TYPE: { status: 400, meaning: "the import accepts only the listed spreadsheet types" },
  ERR_IMPORT_FILE_UNREADABLE: { status: 400, meaning: "the spreadsheet could not be read (damaged, too large or too slow to read)" },
});
