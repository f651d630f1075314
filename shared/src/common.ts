/**
 * zod building blocks shared by every feature: ids, ISO timestamps, paging queries, lenient booleans.
 */
import { z } from "zod";

/** A positive integer id given as number or numeric string (path params arrive as strings). */
export const zId = z.coerce.number().int().positive();
/** ISO-8601 UTC timestamp string with milliseconds (storage and API format). */
export const zIso = z.string().datetime({ offset: true });
/** `pageNumber` query parameter: 1-based, default 1. */
export const zPageNumber = z.coerce.number().int().min(1).max(100000).default(1);
/** Query-string boolean: "true"/"false"/"1"/"0". */
export const zQueryBool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");
/** The enabled/disabled values of the company settings. */
export const zEnabled = z.enum(["enabled", "disabled"]);

/** Current time as an ISO-8601 UTC string. */
export const nowIso = () => new Date().toISOString();
