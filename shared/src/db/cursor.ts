/**
 * Opaque pagination cursors (DESIGN.md §6): base64url(JSON(LastEvaluatedKey)), rejected when the
 * partition it names is not the one the caller's own query uses (no cross-tenant cursor tampering).
 */
import { AppError } from "../errors.ts";

/** Encodes a LastEvaluatedKey (or a map of them, for merged queries) as an opaque string. */
export function encodeCursor(key: Record<string, unknown> | undefined): string | undefined {
  if (!key) return undefined;
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/**
 * Decodes a cursor; when `expect` is given, every listed attribute must equal the expected value
 * (e.g. `{GSI1PK: "C#1#S#open"}`). Throws `ERR_INVALID_CURSOR` (400) otherwise.
 */
export function decodeCursor<T extends Record<string, unknown>>(cursor: string | undefined, expect?: Record<string, string>): T | undefined {
  if (!cursor) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new AppError("ERR_INVALID_CURSOR", 400);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new AppError("ERR_INVALID_CURSOR", 400);
  for (const [k, v] of Object.entries(expect ?? {})) {
    if ((parsed as Record<string, unknown>)[k] !== v) throw new AppError("ERR_INVALID_CURSOR", 400);
  }
  return parsed as T;
}
