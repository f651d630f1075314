/**
 * Opaque pagination cursors: base64url(JSON(LastEvaluatedKey)). Decoding checks the shape only; every
 * paged route then checks each key it carries with `belongsToCompany` (`keys.ts`) against the partition its own query
 * reads (no cross-tenant cursor tampering).
 */
import { AppError } from "../errors.ts";

/** Encodes a LastEvaluatedKey (or a map of them, for merged queries) as an opaque string. */
export function encodeCursor(key: Record<string, unknown> | undefined): string | undefined {
  if (!key) return undefined;
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/** Decodes a cursor to its JSON object; anything else throws `ERR_INVALID_CURSOR` (400). */
export function decodeCursor<T extends Record<string, unknown>>(cursor: string | undefined): T | undefined {
  if (!cursor) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new AppError("ERR_INVALID_CURSOR");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new AppError("ERR_INVALID_CURSOR");
  return parsed as T;
}
