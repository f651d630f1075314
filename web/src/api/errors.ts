/**
 * Turns any failure into the text a person sees (codes of the error table, `shared/src/errors.ts`): a known `{"error":"ERR_..."}` code → its
 * translation (`errors.<CODE>`, interpolated with the body's fields, `date` = formatted `dueDate`); else the raw
 * response text; else 'An error occurred!'.
 */
import type { TFunction } from "i18next";
import i18n from "../i18n/index.ts";
import { formatDate } from "../ui/format.ts";
import { HttpError } from "./client.ts";

/** The translated message for an error thrown by `apiRequest` (or anything else). */
export function errorMessage(e: unknown, t: TFunction = i18n.t): string {
  if (e instanceof HttpError) {
    if (e.code && i18n.exists(`errors.${e.code}`)) {
      const body = (e.body && typeof e.body === "object" ? e.body : {}) as Record<string, unknown>;
      const date = typeof body.dueDate === "string" ? formatDate(body.dueDate) : "";
      return t(`errors.${e.code}`, { ...body, date });
    }
    if (e.code) return e.code;
    if (e.rawText && !/^\s*</.test(e.rawText)) return e.rawText.slice(0, 300);
    return t("errors.generic");
  }
  if (e instanceof TypeError) return t("errors.network");
  return t("errors.generic");
}

/** Field messages of a 400 `ERR_VALIDATION` answer (`fields: [{path, message}]`), keyed by the first path part. */
export function validationFields(e: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (e instanceof HttpError && e.code === "ERR_VALIDATION" && e.body && typeof e.body === "object") {
    const fields = (e.body as { fields?: { path?: string | (string | number)[]; message?: string }[] }).fields ?? [];
    for (const f of fields) {
      const key = Array.isArray(f.path) ? String(f.path[0] ?? "") : String(f.path ?? "").split(".")[0];
      if (key && f.message && !out[key]) out[key] = f.message;
    }
  }
  return out;
}

/**
 * A form's failed save: the server's field messages (`ERR_VALIDATION`) go under the fields through `setFieldErrors`,
 * and the translated message goes to `notify` (a toast).
 */
export function reportSaveError(e: unknown, setFieldErrors: (fields: Record<string, string>) => void, notify: (message: string) => void, t: TFunction = i18n.t): void {
  const fields = validationFields(e);
  if (Object.keys(fields).length) setFieldErrors(fields);
  notify(errorMessage(e, t));
}
