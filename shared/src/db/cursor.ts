/**
 * Opaque pagination cursors: base64url(JSON(LastEvaluatedKey)). Decoding checks the shape only; every paged route then
 * rebuilds each start key it carries with {@link startKeyOf}, against the partition its own query reads (no
 * cross-tenant cursor tampering, and no forged key reaching DynamoDB).
 */
import { AppError } from "../errors.ts";
import { belongsToCompany } from "./keys.ts";

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
    throw new AppError("ERR_INVALID_CURSOR", 400);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new AppError("ERR_INVALID_CURSOR", 400);
  return parsed as T;
}

/** Where a start key must lie: the partition its query reads (`pk`, of the table or of `index`), the item's `PK` prefix. */
export interface StartKeyPlace {
  pk: string;
  index?: "GSI1" | "GSI2" | "GSI3" | "GSI4";
  pkPrefix?: string;
}

/**
 * A client's start key rebuilt from exactly the attributes its query's LastEvaluatedKey has: `PK` and `SK`, plus
 * `<index>PK` and `<index>SK` for an index query, every one a string; the query's partition key equal to `place.pk`,
 * and every partition of company `companyId` (`belongsToCompany`, with `place.pkPrefix`). A missing, extra or
 * non-string attribute, or a key of another partition, is 400 `ERR_INVALID_CURSOR`; `undefined` stays undefined.
 */
export function startKeyOf(key: unknown, companyId: number, place: StartKeyPlace): Record<string, unknown> | undefined {
  if (key === undefined) return undefined;
  const attrs = place.index ? ["PK", "SK", `${place.index}PK`, `${place.index}SK`] : ["PK", "SK"];
  const k = key as Record<string, unknown>;
  const wellFormed =
    !!key &&
    typeof key === "object" &&
    !Array.isArray(key) &&
    Object.keys(k).length === attrs.length &&
    attrs.every((a) => typeof k[a] === "string") &&
    k[place.index ? `${place.index}PK` : "PK"] === place.pk &&
    belongsToCompany(k, companyId, { pkPrefix: place.pkPrefix });
  if (!wellFormed) throw new AppError("ERR_INVALID_CURSOR", 400);
  return Object.fromEntries(attrs.map((a) => [a, k[a] as string]));
}
