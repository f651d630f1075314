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
  if (r.success) return r.data as z.infer<S>;
  const key = raw ?? {};
  throw storedItemFailed({ PK: key.PK, SK: key.SK }, r.error.issues.map((i) => ({ path: i.path.join("."), code: i.code, message: i.message })));
}

/**
 * Logs a stored item that fails its schema (an error line with its key and at most five failing fields) and returns
 * the 500 `ERR_INTERNAL` to throw; for readers that check raw items themselves (the dashboard's counter sums).
 */
export function storedItemFailed(key: { PK: unknown; SK: unknown }, issues: { path: string; code: string; message: string }[]): AppError {
  log("error", "stored item fails its schema", { PK: key.PK, SK: key.SK, issues: issues.slice(0, 5) });
  return new AppError("ERR_INTERNAL");
}

/** Per object schema: each field with a default and that default's value (what a read fills in when the attribute is absent). */
const defaultsOf = new WeakMap<z.ZodObject, Map<string, unknown>>();

function schemaDefaults(schema: z.ZodObject): Map<string, unknown> {
  let defaults = defaultsOf.get(schema);
  if (!defaults) {
    defaults = new Map();
    for (const [k, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
      const r = field.safeParse(undefined);
      if (r.success && r.data !== undefined) defaults.set(k, r.data);
    }
    defaultsOf.set(schema, defaults);
  }
  return defaults;
}

/**
 * `item` without the attributes `schema` fills in on read: a field declared with `.default(d)` whose value is `d`
 * (null, false, 0, "", an enum's default; for a list default, an empty list) is left out, so the stored item is smaller
 * (fewer bytes and attributes to send, parse and store) and `schema.parse` of the stored item gives back an equal
 * object. Every other attribute (keys, `_type`, fields without a default) is kept as given. Readers of the raw item
 * (projections, conditions) must take an absent attribute as its default.
 */
export function withoutDefaults(schema: z.ZodObject, item: Record<string, unknown>): Record<string, unknown> {
  const defaults = schemaDefaults(schema);
  const out: Record<string, unknown> = {};
  for (const k in item) {
    const v = item[k];
    if (defaults.has(k)) {
      const d = defaults.get(k);
      if (v === d || (Array.isArray(v) && Array.isArray(d) && v.length === 0 && d.length === 0)) continue;
    }
    out[k] = v;
  }
  return out;
}
