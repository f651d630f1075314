/**
 * The building blocks of the permission table, kept apart from it so a feature's `permissions.ts` can declare its
 * rows without importing the table it is part of. Pure (no I/O), bundled by the web.
 */

/** The profiles a user can have (the users schema's `Profile` enum mirrors this list). */
export const PROFILES = ["user", "supervisor", "admin"] as const;
export type ProfileName = (typeof PROFILES)[number];

/** Permission name → the profiles that hold it (`super` users hold every permission). */
export type PermissionRows = Record<string, readonly ProfileName[]>;

/**
 * Declares a feature's permissions from its own folder: `<area>:<action>` → the profiles that hold it (`[]` = super
 * only). The table in `access/permissions.ts` is composed from these, one line per feature; returns the rows unchanged.
 * @throws Error when a name is not `<area>:<action>`.
 */
export function definePermissions<const T extends PermissionRows>(rows: T): T {
  for (const name of Object.keys(rows)) if (!/^[a-z][a-z-]*:[a-zA-Z]+$/.test(name)) throw new Error(`permission ${name} is not <area>:<action>`);
  return rows;
}

/**
 * Joins the core rows and the features' rows into one table.
 * @throws Error when two of them declare the same permission.
 */
export function composePermissions<const T extends readonly PermissionRows[]>(...tables: T): UnionToIntersection<T[number]> {
  const out: PermissionRows = {};
  for (const t of tables) {
    for (const [name, profiles] of Object.entries(t)) {
      if (name in out) throw new Error(`permission ${name} is declared twice`);
      out[name] = profiles;
    }
  }
  return out as never;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
