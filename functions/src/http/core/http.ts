/**
 * The HTTP plumbing every area Lambda shares (DESIGN.md §2: handlers are thin).
 *
 * `route({...})` declares one route's zod schemas and handler; `areaHandler(area, impls)` builds the
 * middy + `@middy/http-router` Lambda for every manifest route of that area, with:
 * - auth by the manifest's level (bearer token verified, caller loaded fresh; companyId only from the token),
 * - body/query/path parsed with zod (400 `ERR_VALIDATION` with the field messages, nothing written),
 * - `AppError` rendered as `{"error": code, ...data}` with its status; anything else a 500 `ERR_INTERNAL`
 *   without a stack (logged as one JSON line).
 * Events are API Gateway HTTP API payload 2.0.
 */
import middy from "@middy/core";
import httpRouterHandler from "@middy/http-router";
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from "aws-lambda";
import { z, ZodError, type ZodType } from "zod";
import { authenticate, isAdmin, type AuthContext } from "@atende/shared/auth/tokens";
import { AppError } from "@atende/shared/errors";
import { log } from "@atende/shared/log";
import { routesOf, type Area, type AuthLevel, type RouteDef } from "../routes.ts";

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResponse = { statusCode: number; headers?: Record<string, string>; body?: string; cookies?: string[]; isBase64Encoded?: boolean };

/** What a route handler receives. `auth` is null only on `public` routes. */
export interface RequestContext<B, Q, P, A extends AuthContext | null = AuthContext> {
  event: HttpEvent;
  auth: A;
  body: B;
  query: Q;
  params: P;
  /** Raw body bytes (multipart uploads). */
  rawBody: Buffer;
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

export interface RouteSpec<B, Q, P> {
  body?: ZodType<B>;
  query?: ZodType<Q>;
  params?: ZodType<P>;
  /** Skip JSON parsing (multipart). */
  rawBody?: boolean;
  handler: (ctx: RequestContext<B, Q, P, any>) => Promise<unknown>;
}

/** Declares a route implementation; the types of body, query and params flow from the schemas. */
export function route<B = undefined, Q = Record<string, string | undefined>, P = Record<string, string | undefined>>(spec: RouteSpec<B, Q, P>) {
  return spec;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}, cookies: string[] = []): HttpResponse => ({
  statusCode: status,
  headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  body: body === undefined ? "" : JSON.stringify(body),
  ...(cookies.length ? { cookies } : {}),
});

/** Renders any error as the spec's `{"error": "ERR_..."}` response. Never leaks a stack. */
export function errorResponse(err: unknown, event?: HttpEvent): HttpResponse {
  if (err instanceof AppError) return json(err.status, err.toJSON());
  if (err instanceof ZodError) {
    return json(400, { error: "ERR_VALIDATION", fields: err.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
  }
  const status = (err as { statusCode?: number })?.statusCode;
  if (status === 404) return json(404, { error: "ERR_ROUTE_NOT_FOUND" });
  if (status === 413) return json(413, { error: "ERR_PAYLOAD_TOO_LARGE" });
  log("error", "unhandled error", { err, path: event?.rawPath, requestId: event?.requestContext?.requestId });
  return json(500, { error: "ERR_INTERNAL" });
}

function parseCookies(event: HttpEvent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of event.cookies ?? (event.headers?.cookie ? event.headers.cookie.split(";") : [])) {
    const i = c.indexOf("=");
    if (i > 0) out[c.slice(0, i).trim()] = decodeURIComponent(c.slice(i + 1).trim());
  }
  return out;
}

function header(event: HttpEvent, name: string): string | undefined {
  const h = event.headers ?? {};
  return h[name] ?? h[name.toLowerCase()] ?? Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
}

async function checkAuth(level: AuthLevel, event: HttpEvent): Promise<AuthContext | null> {
  if (level === "public" || level === "apiToken") return null;
  const authz = header(event, "authorization");
  const m = authz?.match(/^Bearer\s+(.+)$/i);
  const auth = await authenticate(m?.[1]);
  if (level === "admin" && !isAdmin(auth)) throw new AppError("ERR_NO_PERMISSION", 403);
  if (level === "super" && !auth.super) throw new AppError("ERR_NO_PERMISSION", 403);
  return auth;
}

function bodyOf(event: HttpEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? "base64" : "utf8");
}

function makeRouteHandler(def: RouteDef, spec: RouteSpec<any, any, any>) {
  return async (event: HttpEvent): Promise<HttpResponse> => {
    try {
      const auth = await checkAuth(def.auth, event);
      const rawBody = bodyOf(event);
      let bodyValue: unknown = undefined;
      if (spec.body && !spec.rawBody) {
        let parsed: unknown = {};
        if (rawBody.length) {
          try {
            parsed = JSON.parse(rawBody.toString("utf8"));
          } catch {
            throw new AppError("ERR_INVALID_JSON", 400);
          }
        }
        bodyValue = spec.body.parse(parsed);
      }
      const query = (spec.query ?? z.record(z.string(), z.string().optional())).parse(event.queryStringParameters ?? {});
      const params = (spec.params ?? z.record(z.string(), z.string().optional())).parse(event.pathParameters ?? {});
      const proto = header(event, "x-forwarded-proto");
      const result = await spec.handler({
        event,
        auth,
        body: bodyValue,
        query,
        params,
        rawBody,
        cookies: parseCookies(event),
        ip: event.requestContext?.http?.sourceIp ?? "unknown",
        secure: proto === "https",
      });
      if (result instanceof Reply) {
        if (result.status === 204) return { statusCode: 204, headers: result.headers, ...(result.cookies.length ? { cookies: result.cookies } : {}) };
        return json(result.status, result.body, result.headers, result.cookies);
      }
      return json(200, result);
    } catch (err) {
      return errorResponse(err, event);
    }
  };
}

/**
 * Builds the Lambda handler of one area. `impls` maps `"METHOD /api/path"` (exactly as in the manifest)
 * to a {@link route}. Throws at load time if a manifest route of the area has no implementation, or an
 * implementation names no manifest route.
 */
export function areaHandler(area: Area, impls: Record<string, RouteSpec<any, any, any>>) {
  const defs = routesOf(area);
  const missing = defs.filter((d) => !impls[`${d.method} ${d.path}`]).map((d) => `${d.method} ${d.path}`);
  const extra = Object.keys(impls).filter((k) => !defs.some((d) => `${d.method} ${d.path}` === k));
  if (missing.length || extra.length) throw new Error(`area ${area}: missing ${missing.join(", ")}; not in manifest ${extra.join(", ")}`);
  // Static paths first so `/api/users/list` wins over `/api/users/{id}`.
  const sorted = [...defs].sort((a, b) => Number(a.path.includes("{")) - Number(b.path.includes("{")));
  const router = httpRouterHandler<HttpEvent, HttpResponse>({
    routes: sorted.map((d) => ({ method: d.method, path: d.path, handler: makeRouteHandler(d, impls[`${d.method} ${d.path}`]) as any })),
    notFoundResponse: () => {
      throw new AppError("ERR_ROUTE_NOT_FOUND", 404);
    },
  });
  return middy<HttpEvent, HttpResponse>()
    .use({ onError: async (request) => { request.response = errorResponse(request.error, request.event); } })
    .handler(router as any) as unknown as (event: HttpEvent, context?: unknown) => Promise<HttpResponse>;
}
