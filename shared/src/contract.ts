/**
 * Operation contracts (docs/architecture.md#6-http-contracts-manifest-pipeline): every HTTP operation is declared once, beside its feature
 * (`shared/src/<feature>/contract.ts`), with its method, path, the Lambda area that serves it, its auth level and
 * its zod schemas: `body`, `query`, `params` (requests, parsed at the edge) and `response` (what a 2xx answer
 * carries). The route manifest (`functions/src/http/routes.ts`) concatenates the features' lists; the HTTP
 * pipeline validates requests with them; the tests validate every answer with `response`; the web's API client
 * takes its types from them (type-only imports: no server code and no zod reaches the web bundle this way).
 *
 * Contract files import only zod and `schema.ts` files, never services or AWS clients.
 */
import { z, type ZodType } from "zod";
import { zId } from "./common.ts";
import type { Permission } from "./access/permissions.ts";
import type { PlanFlag } from "./plans/schema.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
/**
 * `public` (no token), `user` (any logged-in user), `admin` (a permission of the shared table: the operation's
 * `permission`, else {@link ADMIN_LEVEL_PERMISSION}), `super` (super flag), `apiToken` (a connection's token, public
 * messages API).
 */
export type AuthLevel = "public" | "user" | "admin" | "super" | "apiToken";

/** The permission (`access/permissions.ts`) an `admin` operation needs when it names none itself. */
export const ADMIN_LEVEL_PERMISSION: Permission = "routes:admin";

/** The permission a caller needs for an operation: its own, or the `admin` level's; none for other levels. */
export const permissionOf = (op: Pick<OperationSpec, "auth" | "permission">): Permission | undefined =>
  op.auth === "admin" ? (op.permission ?? ADMIN_LEVEL_PERMISSION) : op.permission;

/** What a feature writes for one operation (method and path come from its key, the area from `defineRoutes`). */
export interface OperationSpec {
  auth: AuthLevel;
  /** The named permission the caller needs (checked with `can`); `admin` operations default to `routes:admin`. */
  permission?: Permission;
  /**
   * The company plan's feature flag the operation needs (`useKanban`, `useSchedules`, ...): a company whose plan has
   * it off gets 403 `ERR_PLAN_FEATURE_DISABLED` and nothing is read or written, whatever the caller's profile.
   */
  plan?: PlanFlag;
  body?: ZodType;
  query?: ZodType;
  params?: ZodType;
  /** The 2xx answer's body; {@link NoContent} for a 204. */
  response: ZodType;
  /** The body may be `multipart/form-data` (uploads) as well as JSON `body`. */
  multipart?: boolean;
}

/** A manifest entry: one operation with its method, path and area. */
export interface Operation extends OperationSpec {
  method: Method;
  path: string;
  area: string;
}

/** An operation key: `"METHOD /api/path"` exactly as API Gateway's route key (path params as `{name}`). */
export type OperationKey = `${Method} /api/${string}`;

type MethodOf<K> = K extends `${infer M extends Method} ${string}` ? M : never;
type PathOf<K> = K extends `${Method} ${infer P}` ? P : never;

/**
 * Declares a feature's operations for one Lambda area. Keys are `"METHOD /api/path"`; the result carries each
 * entry's `method`, `path` and `area` as literal types, so the manifest and the web client can be typed from it.
 */
export function defineRoutes<const A extends string, const T extends Record<OperationKey, OperationSpec>>(
  area: A,
  ops: T,
): { [K in keyof T]: T[K] & { method: MethodOf<K>; path: PathOf<K>; area: A } } {
  const out: Record<string, Operation> = {};
  for (const [key, spec] of Object.entries(ops)) {
    const [method, path] = key.split(" ") as [Method, string];
    out[key] = { ...spec, method, path, area };
  }
  return out as never;
}

/** A 204 answer: no body. */
export const NoContent = z.undefined();
/** The product's confirmation bodies, e.g. `{"message": "User deleted"}`. */
export const MessageReply = z.object({ message: z.string() });
/** `{id, name, color}` of a linked queue or tag. */
export const ColoredRef = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
/** `{id, name}` of a linked record. */
export const NamedRef = z.object({ id: z.number().int(), name: z.string() });
/** Path `{id}` as a positive integer. */
export const IdParams = z.object({ id: zId });

/** A page of a cursor-paged list: `{<items>, count, hasMore, nextCursor?}`. */
export const page = <const N extends string, S extends ZodType>(name: N, item: S) =>
  z.object({ [name]: z.array(item), count: z.number().int(), hasMore: z.boolean(), nextCursor: z.string().optional() } as {
    [K in N]: z.ZodArray<S>;
  } & { count: z.ZodNumber; hasMore: z.ZodBoolean; nextCursor: z.ZodOptional<z.ZodString> });
