/**
 * The HTTP pipeline every area Lambda shares (handlers are thin; docs/architecture.md#6-http-contracts-manifest-pipeline).
 * A route's contract (`shared/src/<feature>/contract.ts`, listed in the manifest `../routes.ts`) decides which middy
 * middlewares run:
 *
 *   errorHandler → responseContract (tests) → originGuard → auth(level) → jsonBody | multipartOrJsonBody → validate
 *   → implementation
 *
 * `originGuard` runs on every route before any token is read: in the cloud a request without CloudFront's origin
 * secret header is refused with 403 (`./middlewares/origin.ts`).
 *
 * `areaHandler(area, impls)` builds one `@middy/http-router` Lambda for every manifest route of the area; `impls`
 * maps each operation key (`"METHOD /api/path"`) to its implementation, whose `ctx` is typed from the contract.
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import middy from "@middy/core";
import httpRouterHandler from "@middy/http-router";
import type { z, ZodType } from "zod";
import type { AuthContext } from "@atende/shared/auth/tokens";
import type { ApiCaller } from "@atende/shared/messagesApi/service";
import { AppError } from "@atende/shared/errors";
import { manifest, routesOf, type Area, type Manifest, type OperationId, type RouteDef } from "../routes.ts";
import { auth } from "./middlewares/auth.ts";
import { originGuard } from "./middlewares/origin.ts";
import { jsonBody, multipartOrJsonBody } from "./middlewares/body.ts";
import { errorHandler, errorResponse } from "./middlewares/errors.ts";
import { checkResponses, responseContract } from "./middlewares/response.ts";
import { validate } from "./middlewares/validate.ts";
import { header, json, stateOf, type HttpEvent, type HttpResponse, type Upload } from "./types.ts";

export { errorResponse } from "./middlewares/errors.ts";
export type { HttpEvent, HttpResponse, Upload } from "./types.ts";

/** What a route implementation receives. `auth` is null only on `public`/`apiToken` routes. */
export interface RequestContext<B, Q, P, A extends AuthContext | null = AuthContext> {
  event: HttpEvent;
  auth: A;
  body: B;
  query: Q;
  params: P;
  /** Raw body bytes. */
  rawBody: Buffer;
  /** Files and captions of a multipart body (operations declared `multipart`, when the request was one); `fields`: its other text fields. */
  upload?: { files: Upload[]; captions: string[]; fields?: Record<string, string> };
  /** The connection whose token authenticated an `apiToken` operation (absent on other levels). */
  apiCaller?: ApiCaller;
  /** Cookies sent by the browser. */
  cookies: Record<string, string>;
  /** Caller IP as API Gateway saw it. */
  ip: string;
  /** True when the request reached us over https (Secure cookies). */
  secure: boolean;
}

/** A route's result: a plain value is sent as JSON 200; use {@link reply} for status, headers or cookies. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
    readonly cookies: string[] = [],
  ) {}
}
export const reply = (status: number, body?: unknown, extra: { headers?: Record<string, string>; cookies?: string[] } = {}) =>
  new Reply(status, body, extra.headers, extra.cookies);

type Out<S, Else> = S extends ZodType ? z.output<S> : Else;
type Strings = Record<string, string | undefined>;

/** The typed context of one manifest operation. */
export type ContextOf<K extends OperationId> = RequestContext<
  Out<Manifest[K] extends { body: infer B } ? B : undefined, undefined>,
  Out<Manifest[K] extends { query: infer Q } ? Q : undefined, Strings>,
  Out<Manifest[K] extends { params: infer P } ? P : undefined, Strings>,
  Manifest[K]["auth"] extends "public" | "apiToken" ? null : AuthContext
>;

/** One operation's implementation: a plain value (JSON 200) or a {@link Reply}. */
export type Impl<K extends OperationId> = (ctx: ContextOf<K>) => Promise<z.input<Manifest[K]["response"]> | Reply>;

/** The implementations an area must give: exactly its manifest operations. */
/**
 * A route that runs `work` and answers `{ message }` (the confirmation replies of deletes, e.g. `{"message": "Queue deleted"}`).
 */
/** 202 for work a background job does (`jobs/`): `{message, jobId, job}`, the job to follow by its id. */
export function started(message: string, job: { id: string }): Reply {
  return reply(202, { message, jobId: job.id, job });
}

export function answering<C>(message: string, work: (ctx: C) => Promise<unknown>): (ctx: C) => Promise<{ message: string }> {
  return async (ctx) => {
    await work(ctx);
    return { message };
  };
}

export type AreaImpls<A extends Area> = { [K in OperationId as Manifest[K]["area"] extends A ? K : never]: Impl<K> };

function parseCookies(event: HttpEvent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of event.cookies ?? (event.headers?.cookie ? event.headers.cookie.split(";") : [])) {
    const i = c.indexOf("=");
    if (i > 0) out[c.slice(0, i).trim()] = decodeURIComponent(c.slice(i + 1).trim());
  }
  return out;
}

function toResponse(result: unknown): HttpResponse {
  if (result instanceof Reply) {
    if (result.status === 204) return { statusCode: 204, headers: result.headers, ...(result.cookies.length ? { cookies: result.cookies } : {}) };
    return json(result.status, result.body, result.headers, result.cookies);
  }
  return json(200, result);
}

/** The middy pipeline of one route: its middlewares chosen from its contract, then the implementation. */
// biome-ignore lint/suspicious/noExplicitAny: any route's implementation, typed per route by `AreaImpls`
export function routePipeline(def: RouteDef, impl: (ctx: RequestContext<any, any, any, any>) => Promise<unknown>) {
  const pipeline = middy<HttpEvent, HttpResponse>().use(errorHandler());
  if (checkResponses()) pipeline.use(responseContract(def));
  return pipeline
    .use(originGuard())
    .use(auth(def))
    .use(def.multipart ? multipartOrJsonBody() : jsonBody(Boolean(def.body)))
    .use(validate(def))
    .handler(async (event) => {
      const s = stateOf(event);
      const result = await impl({
        event,
        auth: s.auth,
        body: s.body,
        query: s.query,
        params: s.params,
        rawBody: s.rawBody,
        upload: s.upload,
        apiCaller: s.apiCaller,
        cookies: parseCookies(event),
        ip: event.requestContext?.http?.sourceIp ?? "unknown",
        secure: header(event, "x-forwarded-proto") === "https",
      });
      return toResponse(result);
    });
}

/**
 * Builds the Lambda handler of one area from its manifest routes and `impls` (one per operation key).
 * Throws at load time if a manifest route of the area has no implementation, or an implementation names no route.
 * `defs` defaults to the manifest's routes of the area (tests pass their own).
 */
export function areaHandler<A extends Area>(area: A, impls: AreaImpls<A>, defs: RouteDef[] = routesOf(area)) {
  // biome-ignore lint/suspicious/noExplicitAny: the area's implementations, each typed by its own contract in `AreaImpls`
  const byKey = impls as unknown as Record<string, (ctx: RequestContext<any, any, any, any>) => Promise<unknown>>;
  const missing = defs.filter((d) => !byKey[`${d.method} ${d.path}`]).map((d) => `${d.method} ${d.path}`);
  const extra = Object.keys(byKey).filter((k) => !defs.some((d) => `${d.method} ${d.path}` === k));
  if (missing.length || extra.length) throw new Error(`area ${area}: missing ${missing.join(", ")}; not in manifest ${extra.join(", ")}`);
  // Static paths first so `/api/users/list` wins over `/api/users/{id}`.
  const sorted = [...defs].sort((a, b) => Number(a.path.includes("{")) - Number(b.path.includes("{")));
  const router = httpRouterHandler<HttpEvent, HttpResponse>({
    // biome-ignore lint/suspicious/noExplicitAny: middy's router types each handler with its own context generics
    routes: sorted.map((d) => ({ method: d.method, path: d.path, handler: routePipeline(d, byKey[`${d.method} ${d.path}`]) as any })),
    notFoundResponse: () => {
      throw new AppError("ERR_ROUTE_NOT_FOUND");
    },
  });
  return middy<HttpEvent, HttpResponse>()
    .use({ onError: async (request) => { request.response = errorResponse(request.error, request.event); } })
    // biome-ignore lint/suspicious/noExplicitAny: the router is a middy handler whose generics differ from the outer one
    .handler(router as any) as unknown as (event: HttpEvent, context?: unknown) => Promise<HttpResponse>;
}

/** The manifest entry of an operation key. */
export const operation = <K extends OperationId>(key: K): Manifest[K] => manifest[key];
