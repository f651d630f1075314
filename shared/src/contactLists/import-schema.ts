/**
 * The import report (contact lists and contacts): what each row of a spreadsheet became. Beside `schema.ts` so both
 * imports answer one shape (docs/product/contact-lists.md#import).
 */
import { z } from "zod";
import { zQueryBool } from "../common.ts";

/** Why a row was not imported. */
export const SkipReason = z.enum(["missingNumber", "invalidNumber", "duplicate"]);
export type SkipReason = z.infer<typeof SkipReason>;

/** One data row of the file (`row`: its number in the sheet, 1-based, as the spreadsheet shows it). */
export const ImportRowReport = z.object({
  row: z.number().int(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  status: z.enum(["added", "updated", "skipped"]),
  /** For a skipped row; `duplicate` names the earlier row (`duplicateOf`). */
  reason: SkipReason.optional(),
  duplicateOf: z.number().int().optional(),
  /** The e-mail was not an e-mail: the row is imported without it. */
  warning: z.literal("invalidEmail").optional(),
  /** The item or contact written (absent for a skipped row and in a preview). */
  id: z.number().int().optional(),
  /** As WhatsApp answered when the report was made; null: not checked yet. */
  isWhatsappValid: z.boolean().nullable().optional(),
});
export type ImportRowReport = z.infer<typeof ImportRowReport>;

/** The answer of an upload: totals and one entry per data row (blank rows are not data). */
export const ImportReport = z.object({
  preview: z.boolean(),
  added: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  rows: z.array(ImportRowReport),
});
export type ImportReport = z.infer<typeof ImportReport>;

/** `?preview=true`: read and check the file, write nothing. */
export const ImportQuery = z.object({ preview: zQueryBool.default(false) });

/** One person of an import kept for its background job (`import.ts` `ImportPerson`). */
export const ImportPersonSchema = z.object({
  row: z.number().int(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  warning: z.literal("invalidEmail").optional(),
});

/**
 * The parameters of an `importContactList` job: the list, where the uploaded file waits in the media bucket and its
 * kind (the job reads it; deleted when the job ends).
 */
export const ContactListImportJobParams = z.object({
  contactListId: z.number().int().positive(),
  key: z.string().min(1),
  kind: z.enum(["xlsx", "xls"]),
});
export type ContactListImportJobParams = z.infer<typeof ContactListImportJobParams>;

/**
 * Where an `importContactList` job stands once it read its file: the next person to write (`at`), the first of the
 * item ids reserved for the file's people (person `i` is added with id `firstId + i`, so a step repeated after a
 * death recognizes its own rows), how many people there are, and where they are kept (a JSON array of
 * {@link ImportPersonSchema} in the media bucket).
 */
export const ContactListImportCursor = z.object({
  at: z.number().int().min(0),
  firstId: z.number().int().positive(),
  people: z.number().int().min(0),
  key: z.string().min(1),
});
export type ContactListImportCursor = z.infer<typeof ContactListImportCursor>;
