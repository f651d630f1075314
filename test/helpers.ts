/**
 * Test helpers shared by every integration test:
 * - `makeCompany` / `makeUser`: write tenant items straight to the table (no dependency on the services under test)
 *   and return a signed access token for each user.
 * - `api(method, path, opts)`: invokes the area Lambda the route manifest names with an API Gateway HTTP API v2
 *   event, exactly as the local gateway and API Gateway do, and returns `{status, body, cookies}`. Under vitest the
 *   pipeline checks every 2xx answer against its operation's response schema (`shared/src/<feature>/contract.ts`);
 *   `api` throws with the issues when one does not match, so every integration test is also a contract test.
 */
import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import bcrypt from "bcryptjs";
import { signAccessToken } from "../shared/src/auth/tokens.ts";
import { resetConfig } from "../shared/src/config.ts";
import { ddb, tableName } from "../shared/src/db/client.ts";
import { nextId } from "../shared/src/db/counters.ts";
import { keys } from "../shared/src/db/keys.ts";
import type { Profile } from "../shared/src/users/schema.ts";
import type { PlanFlag } from "../shared/src/plans/schema.ts";
import { routes, type Method } from "../functions/src/http/routes.ts";

export interface TestUser {
  id: number;
  companyId: number;
  email: string;
  password: string;
  token: string;
  profile: Profile;
}

const PASSWORD_HASH_CACHE = new Map<string, string>();
function hash(pw: string) {
  let h = PASSWORD_HASH_CACHE.get(pw);
  if (!h) {
    h = bcrypt.hashSync(pw, 4);
    PASSWORD_HASH_CACHE.set(pw, h);
  }
  return h;
}

/** Writes a user item (and its global email marker) and returns it with a signed access token. */
export async function makeUser(
  companyId: number,
  opts: { profile?: Profile; super?: boolean; queueIds?: number[]; allTicket?: "enabled" | "desabled"; name?: string; email?: string; password?: string } = {},
): Promise<TestUser> {
  const id = await nextId(companyId, "user");
  const email = opts.email ?? `u${id}-${randomUUID().slice(0, 8)}@c${companyId}.test`;
  const password = opts.password ?? "secret1";
  const now = new Date().toISOString();
  const profile = opts.profile ?? "user";
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.user(companyId, id),
        _type: "user",
        id,
        companyId,
        name: opts.name ?? `User ${id}`,
        email,
        passwordHash: hash(password),
        profile,
        super: opts.super ?? false,
        online: false,
        allTicket: opts.allTicket ?? "desabled",
        whatsappId: null,
        queueIds: opts.queueIds ?? [],
        tokenVersion: 0,
        createdAt: now,
        updatedAt: now,
      },
    }),
  );
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.email(email), _type: "email", companyId, userId: id } }));
  const token = await signAccessToken({ id, companyId, tokenVersion: 0, profile });
  return { id, companyId, email, password, token, profile };
}

/** A company's own fields in tests: `dueDate` `null` for none (default a year ahead); `planFlags` turns plan flags off; `planLimits` sets the plan's counts. */
export interface CompanyOptions {
  name?: string;
  dueDate?: string | null;
  adminSuper?: boolean;
  planFlags?: Partial<Record<PlanFlag, boolean>>;
  planLimits?: Partial<Record<"users" | "connections" | "queues", number>>;
}

/**
 * Writes a plan (all flags on but those `planFlags` sets; 10 users, connections and queues unless `planLimits` says),
 * a company on it and its admin; returns ids and the admin.
 */
export async function makeCompany(opts: CompanyOptions = {}) {
  const now = new Date().toISOString();
  const planId = await nextId("GLOBAL", "plan");
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.plan(planId), _type: "plan", id: planId, name: `Plano ${planId}`, users: 10, connections: 10, queues: 10, valueCents: 3000,
        useCampaigns: true, useKanban: true, useOpenAi: true, useIntegrations: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useInternal: true, ...opts.planFlags, ...opts.planLimits,
        createdAt: now, updatedAt: now,
      },
    }),
  );
  const companyId = await nextId("GLOBAL", "company");
  const dueDate = opts.dueDate === undefined ? new Date(Date.now() + 365 * 86400000).toISOString() : opts.dueDate;
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.company(companyId), ...keys.companiesIndex(companyId), _type: "company", id: companyId, name: opts.name ?? `Empresa ${companyId}`,
        email: `c${companyId}@test`, phone: "", planId, status: true, dueDate, recurrence: "MENSAL", createdAt: now, updatedAt: now,
      },
    }),
  );
  const admin = await makeUser(companyId, { profile: "admin", super: opts.adminSuper ?? false, name: "Admin" });
  return { companyId, planId, admin };
}

export interface ApiResult<T = any> {
  status: number;
  body: T;
  cookies: string[];
  headers: Record<string, string>;
}

function matchRoute(method: string, path: string) {
  const candidates = routes
    .filter((r) => r.method === method)
    .sort((a, b) => Number(a.path.includes("{")) - Number(b.path.includes("{")));
  for (const r of candidates) {
    const names: string[] = [];
    const re = new RegExp(`^${r.path.replace(/\{([^}]+)\}/g, (_m, n) => {
      names.push(n);
      return "([^/]+)";
    })}/?$`);
    const m = path.match(re);
    if (m) return { route: r, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
  }
  return undefined;
}

/** Builds the API Gateway HTTP API payload 2.0 event for a request. */
export function httpEvent(
  method: Method,
  pathWithQuery: string,
  opts: { token?: string; body?: unknown; rawBody?: Buffer; contentType?: string; cookies?: string[]; headers?: Record<string, string>; ip?: string } = {},
) {
  const [path, qs] = pathWithQuery.split("?");
  const query = qs ? Object.fromEntries(new URLSearchParams(qs)) : undefined;
  const matched = matchRoute(method, path);
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  // With an origin secret configured (the cloud), requests come through CloudFront, which adds it; a test
  // plays a direct execute-api call by passing `x-atende-origin` itself ("" for none).
  if (process.env.ORIGIN_VERIFY_SECRET && !("x-atende-origin" in headers)) headers["x-atende-origin"] = process.env.ORIGIN_VERIFY_SECRET;
  let body: string | undefined;
  let isBase64Encoded = false;
  if (opts.rawBody) {
    body = opts.rawBody.toString("base64");
    isBase64Encoded = true;
    headers["content-type"] = opts.contentType ?? "application/octet-stream";
  } else if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] = "application/json";
  }
  return {
    version: "2.0",
    routeKey: matched ? `${method} ${matched.route.path}` : "$default",
    rawPath: path,
    rawQueryString: qs ?? "",
    cookies: opts.cookies,
    headers,
    queryStringParameters: query,
    pathParameters: matched?.params,
    requestContext: {
      accountId: "local", apiId: "local", domainName: "localhost", domainPrefix: "localhost", requestId: randomUUID(), routeKey: "", stage: "$default",
      time: new Date().toISOString(), timeEpoch: Date.now(),
      http: { method, path, protocol: "HTTP/1.1", sourceIp: opts.ip ?? "127.0.0.1", userAgent: "vitest" },
    },
    body,
    isBase64Encoded,
  };
}

const areaCache = new Map<string, Promise<{ handler: (e: unknown, c?: unknown) => Promise<any> }>>();

/** Invokes the route's area handler and parses the JSON response. Unknown routes → status 404. */
export async function api<T = any>(method: Method, pathWithQuery: string, opts: Parameters<typeof httpEvent>[2] = {}): Promise<ApiResult<T>> {
  const [path] = pathWithQuery.split("?");
  const matched = matchRoute(method, path);
  if (!matched) return { status: 404, body: { error: "ERR_ROUTE_NOT_FOUND" } as T, cookies: [], headers: {} };
  const area = matched.route.area;
  if (!areaCache.has(area)) areaCache.set(area, import(`../functions/src/http/${area}.ts`));
  const mod = await areaCache.get(area)!;
  const res = await mod.handler(httpEvent(method, pathWithQuery, opts), {});
  let body: any = res.body;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    // not JSON
  }
  if (res.statusCode === 500 && body?.contractIssues) {
    throw new Error(`${body.operation} answered a shape its contract does not allow: ${JSON.stringify(body.contractIssues)}`);
  }
  return { status: res.statusCode, body, cookies: res.cookies ?? [], headers: res.headers ?? {} };
}

/** A file of a {@link multipartBody}. */
export interface FormFile {
  name: string;
  type: string;
  data: Buffer;
  /** The form field (default `medias`; entity uploads also take `file`). */
  field?: string;
}

/**
 * A `multipart/form-data` body as a browser's FormData sends it: text `fields` first, then `files`; spread into
 * `api(...)`'s options (`{rawBody, contentType}`).
 */
export function multipartBody(files: FormFile[], fields: Record<string, string> = {}) {
  const boundary = "----atendeTestBoundary42";
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? "medias"}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`));
    parts.push(f.data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { rawBody: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Runs `run` at log level `error` with the process' log lines captured (the level and stderr restored after); returns
 * its result and the lines, parsed: what a test of a stored item failing its schema checks (a 500 and an error line).
 */
export async function withErrorLogs<T>(run: () => Promise<T>): Promise<{ result: T; logs: Record<string, unknown>[] }> {
  const lines: string[] = [];
  const level = process.env.LOG_LEVEL;
  const write = process.stderr.write;
  process.env.LOG_LEVEL = "error";
  resetConfig();
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    const result = await run();
    return { result, logs: lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>) };
  } finally {
    process.stderr.write = write;
    if (level === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = level;
    resetConfig();
  }
}
