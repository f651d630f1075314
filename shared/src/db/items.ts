/**
 * Reading stored items with their schema. A stored item that fails its schema is our bug, not the caller's: it is
 * logged as an error naming the item's key (and the failing fields, never sent to the client) and answered 500
 * `{"error":"ERR_INTERNAL"}`.
 */
import type { z } from "zod";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";

/**
 * `schema.parse(raw)` for an item read from the table (`raw` has its `PK` / `SK`).
 * @throws AppError `ERR_INTERNAL` (500) when the item fails its schema, after an error log line with its key.
 */
export function parseStored<S extends z.ZodType>(schema: S, raw: Record<string, unknown> | undefined): z.infer<S> {
  const r = schema.safeParse(raw);
  const key = raw ?? {};
  if (r.success) return r.data as z.infer<S>;
  log("error", "stored item fails its schema", {
    PK: key.PK,
    SK: key.SK,
    issues: r.error.issues.slice(0, 5).map((i) => ({ path: i.path.join("."), code: i.code, message: i.message })),
  });
  throw new AppError("ERR_INTERNAL");
}
