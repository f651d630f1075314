/**
 * The typed API client (docs/architecture.md#6-http-contracts-manifest-pipeline): a call names a manifest operation — `call("GET /api/users/{id}", {params: {id}})`
 * — and gets its answer typed from the operation's response schema (`shared/src/<feature>/contract.ts`, listed in
 * `functions/src/http/routes.ts`). Path params, query keys and the body are typed from the same contract. Only
 * TYPES are imported from the manifest: nothing of the server (and no zod) is bundled into the web.
 * Goes through {@link apiRequest}, so the session rule (refresh on 403 `ERR_SESSION_EXPIRED`, 401 → logout) applies.
 */
import type { z, ZodType } from "zod";
import type { Manifest, OperationId } from "@atende/functions/http/routes";
import { apiRequest, type BodylessMethod, type Method, type RequestOptions } from "./client.ts";

export type { OperationId };

type Schema<K extends OperationId, F extends string> = Manifest[K] extends { [P in F]: infer S } ? (S extends ZodType ? S : never) : never;
type QueryValue = string | number | boolean | null | undefined;

/** The answer of an operation, as its response schema describes it. */
export type ResponseOf<K extends OperationId> = z.output<Manifest[K]["response"]>;
/** The JSON body an operation takes. */
export type BodyOf<K extends OperationId> = z.input<Schema<K, "body">>;

/**
 * What a call passes: `params` for `{name}` path parts, `query` (keys of the query schema), `body`, and `form` (a
 * multipart body) for the operations the contract marks `multipart` (uploads). No `body` for a GET or DELETE.
 */
export type InputOf<K extends OperationId> = ([Schema<K, "params">] extends [never] ? unknown : { params: Record<keyof z.input<Schema<K, "params">>, string | number> }) &
  ([Schema<K, "query">] extends [never] ? unknown : { query?: Partial<Record<keyof z.input<Schema<K, "query">>, QueryValue>> }) &
  // A GET or DELETE never takes a body (the client would drop it): a contract that declares one cannot be called.
  (K extends `${BodylessMethod} ${string}` ? { body?: never } : [Schema<K, "body">] extends [never] ? unknown : { body: BodyOf<K> }) &
  (Manifest[K] extends { multipart: true } ? { form?: FormData } : unknown) &
  Pick<RequestOptions, "noSessionRule" | "headers">;

type Args<K extends OperationId> = Record<never, never> extends InputOf<K> ? [input?: InputOf<K>] : [input: InputOf<K>];

/** `"GET /api/users/{id}"` + `{id: 3}` → `["GET", "/users/3"]` (the client's paths are relative to `/api`). */
export function resolveOperation(op: string, params: Record<string, string | number> = {}): [Method, string] {
  const [method, path] = op.split(" ") as [Method, string];
  const filled = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (params[name] === undefined) throw new Error(`${op}: missing path parameter ${name}`);
    return encodeURIComponent(String(params[name]));
  });
  return [method, filled.replace(/^\/api/, "")];
}

/**
 * Calls one operation of the manifest and returns its typed answer.
 * @throws HttpError for any non-2xx answer (after the session rule), or the network error.
 */
export function call<K extends OperationId>(op: K, ...[input]: Args<K>): Promise<ResponseOf<K>> {
  const i = (input ?? {}) as { params?: Record<string, string | number>; query?: RequestOptions["query"]; body?: unknown; form?: FormData; noSessionRule?: boolean; headers?: Record<string, string> };
  const [method, path] = resolveOperation(op, i.params);
  return apiRequest<ResponseOf<K>>(method, path, { query: i.query, body: i.form ?? i.body, noSessionRule: i.noSessionRule, headers: i.headers });
}
