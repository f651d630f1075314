/**
 * zod building blocks shared by every feature: ids, ISO timestamps, paging queries, lenient booleans.
 */
import { z } from "zod";

/**
 * A positive integer id: a JSON integer, or a string of digits (path and query params arrive as strings). Nothing else
 * is read as a number: `"0x1"`, `"1e0"`, `" 1"`, `"1.0"` or `true` are refused (400 `ERR_VALIDATION`), never id 1.
 */
export const zId = z
  .union([z.number(), z.string().regex(/^\d{1,16}$/, "Invalid id").transform(Number)])
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));
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

/** An ISO time strictly after `prev` (conditional writes on `updatedAt` need each write to move it). */
export function laterIso(prev?: string | null): string {
  const now = nowIso();
  if (!prev || now > prev) return now;
  return new Date(Date.parse(prev) + 1).toISOString();
}
