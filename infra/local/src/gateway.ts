/**
 * The local HTTP gateway (docs/architecture.md#2-one-machine-npm-start): what API Gateway HTTP API + CloudFront do in the cloud.
 *
 * - `/api/*`: matched against THE route manifest (`functions/src/http/routes.ts`; static paths before `{param}` ones),
 *   turned into an API Gateway HTTP API payload 2.0 event and handed to `handler(event, context)` of
 *   `functions/src/http/<area>.ts` (imported lazily). The result's status, headers, body and every `cookies[]` entry
 *   (one `Set-Cookie` each) are written back. Unknown path → 404 `{"error":"ERR_ROUTE_NOT_FOUND"}`; an area module that
 *   fails to load or a handler that throws → 500 `{"error":"ERR_INTERNAL"}` (logged), the process keeps running.
 * - everything else: the built SPA from `webDist` with history fallback to `index.html`; a page saying how to build it
 *   when it is missing.
 */
import { randomUUID } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { routes, type RouteDef } from "@atende/functions/http/routes";

/** API Gateway HTTP API's payload limit (10 MB). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

type AreaModule = { handler: (event: unknown, context: unknown) => Promise<unknown> };

export interface HttpApiEventV2 {
  version: "2.0";
  routeKey: string;
  rawPath: string;
  rawQueryString: string;
  cookies?: string[];
  headers: Record<string, string>;
  queryStringParameters?: Record<string, string>;
  pathParameters?: Record<string, string>;
  requestContext: {
    accountId: string;
    apiId: string;
    domainName: string;
    domainPrefix: string;
    http: { method: string; path: string; protocol: string; sourceIp: string; userAgent: string };
    requestId: string;
    routeKey: string;
    stage: string;
    time: string;
    timeEpoch: number;
  };
  body?: string;
  isBase64Encoded: boolean;
}

const sortedRoutes = [...routes].sort((a, b) => Number(a.path.includes("{")) - Number(b.path.includes("{")));
const compiled = sortedRoutes.map((r) => {
  const names: string[] = [];
  const re = new RegExp(`^${r.path.replace(/\{([^}]+)\}/g, (_m, n: string) => {
    names.push(n);
    return "([^/]+)";
  })}/?$`);
  return { route: r, re, names };
});

/** The manifest route for `method path` (static before parameterised) and its decoded path parameters. */
export function matchRoute(method: string, path: string): { route: RouteDef; params: Record<string, string> } | undefined {
  for (const c of compiled) {
    if (c.route.method !== method) continue;
    const m = c.re.exec(path);
    if (m) return { route: c.route, params: Object.fromEntries(c.names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
  }
  return undefined;
}

const TEXT_TYPES = /^(text\/|application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml|[\w.+-]+\+xml|javascript|graphql))/i;

/** Builds the payload 2.0 event API Gateway would send for this request (`body` is the raw request bytes). */
export function toHttpApiEvent(req: IncomingMessage, body: Buffer, matched: { route: RouteDef; params: Record<string, string> }): HttpApiEventV2 {
  const url = new URL(req.url ?? "/", "http://local");
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    if (name === "cookie") {
      cookies = (Array.isArray(v) ? v.join("; ") : v).split(";").map((c) => c.trim()).filter(Boolean);
      continue;
    }
    headers[name] = Array.isArray(v) ? v.join(",") : v;
  }
  const sourceIp = (req.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
  headers["x-forwarded-for"] = headers["x-forwarded-for"] ? `${headers["x-forwarded-for"]}, ${sourceIp}` : sourceIp;
  headers["x-forwarded-proto"] ??= "http";
  headers["x-forwarded-port"] ??= String(req.socket.localPort ?? "");
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const contentType = headers["content-type"] ?? "";
  const isText = !body.length || TEXT_TYPES.test(contentType);
  const now = new Date();
  const routeKey = `${matched.route.method} ${matched.route.path}`;
  const domainName = (headers.host ?? "localhost").split(":")[0];
  return {
    version: "2.0",
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ""),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(matched.params).length ? { pathParameters: matched.params } : {}),
    requestContext: {
      accountId: "000000000000",
      apiId: "local",
      domainName,
      domainPrefix: domainName.split(".")[0],
      http: { method: req.method ?? "GET", path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp, userAgent: headers["user-agent"] ?? "" },
      requestId: randomUUID(),
      routeKey,
      stage: "$default",
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString("utf8") : body.toString("base64") } : {}),
    isBase64Encoded: !isText,
  };
}

function readBody(req: IncomingMessage): Promise<Buffer | "too-large"> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on("end", () => resolveBody(tooLarge ? "too-large" : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** Writes a Lambda proxy result (payload 2.0 response format) to `res`. */
export function writeLambdaResult(res: ServerResponse, result: unknown) {
  if (result === null || typeof result !== "object" || !("statusCode" in result)) {
    // Payload 2.0: a result without statusCode is a 200 JSON body.
    sendJson(res, 200, result ?? null);
    return;
  }
  const r = result as { statusCode: number; headers?: Record<string, string | number | boolean>; multiValueHeaders?: Record<string, string[]>; cookies?: string[]; body?: string; isBase64Encoded?: boolean };
  for (const [k, v] of Object.entries(r.headers ?? {})) res.setHeader(k, String(v));
  for (const [k, v] of Object.entries(r.multiValueHeaders ?? {})) res.setHeader(k, v);
  if (r.cookies?.length) res.setHeader("set-cookie", r.cookies);
  res.statusCode = r.statusCode;
  res.end(r.body ? Buffer.from(r.body, r.isBase64Encoded ? "base64" : "utf8") : undefined);
}

export interface GatewayOptions {
  /** Folder of `functions/src` (area modules are `<functionsDir>/http/<area>.ts`). */
  functionsDir: string;
  /** Built SPA folder (`web/dist`). */
  webDist: string;
  /** One JSON line per problem; silent when omitted. */
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

/** Creates the `/api/*` handler over the manifest. Resolves true when it handled the request. */
export function createApiHandler(opts: GatewayOptions) {
  const modules = new Map<string, Promise<AreaModule>>();
  const load = (area: string): Promise<AreaModule> => {
    let p = modules.get(area);
    if (!p) {
      p = import(pathToFileURL(join(opts.functionsDir, "http", `${area}.ts`)).href) as Promise<AreaModule>;
      modules.set(area, p);
      // A module that fails to load is retried on the next request (it may be being written right now).
      p.catch(() => modules.delete(area));
    }
    return p;
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = new URL(req.url ?? "/", "http://local").pathname;
    if (path !== "/api" && !path.startsWith("/api/")) return false;
    const matched = matchRoute(req.method ?? "GET", path);
    if (!matched) {
      req.resume();
      sendJson(res, 404, { error: "ERR_ROUTE_NOT_FOUND" });
      return true;
    }
    const body = await readBody(req);
    if (body === "too-large") {
      sendJson(res, 413, { error: "ERR_PAYLOAD_TOO_LARGE" });
      return true;
    }
    let mod: AreaModule;
    try {
      mod = await load(matched.route.area);
      if (typeof mod.handler !== "function") throw new Error(`functions/src/http/${matched.route.area}.ts exports no handler`);
    } catch (err) {
      opts.log?.("gateway: area module failed to load", { area: matched.route.area, err: String((err as Error)?.message ?? err) });
      sendJson(res, 500, { error: "ERR_INTERNAL" });
      return true;
    }
    const event = toHttpApiEvent(req, body, matched);
    try {
      const result = await mod.handler(event, { awsRequestId: event.requestContext.requestId, functionName: `atende-${matched.route.area}` });
      writeLambdaResult(res, result);
    } catch (err) {
      opts.log?.("gateway: handler threw", { area: matched.route.area, path, err: String((err as Error)?.message ?? err) });
      if (!res.headersSent) sendJson(res, 500, { error: "ERR_INTERNAL" });
      else res.end();
    }
    return true;
  };
}

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

const MISSING_DIST = `<!doctype html><html><head><meta charset="utf-8"><title>Atende</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto">
<h1>The web app is not built yet</h1>
<p>Run <code>npm run build -w web</code> (or restart with <code>npm start</code>, which builds it) and reload this page.</p>
</body></html>`;

/**
 * Content-Security-Policy of the local SPA (the cloud's is `CONTENT_SECURITY_POLICY` in infra/lib/web.ts): our own
 * scripts only; media and uploads may also reach the local S3 stand-in on another port of this machine.
 */
export const LOCAL_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http://localhost:* http://127.0.0.1:*",
  "media-src 'self' blob: http://localhost:* http://127.0.0.1:*",
  "font-src 'self' data:",
  "connect-src 'self' ws://localhost:* ws://127.0.0.1:* http://localhost:* http://127.0.0.1:*",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

/** Creates the static SPA handler: files from `webDist`, history fallback to `index.html` for page routes. */
export function createStaticHandler(webDist: string) {
  const root = resolve(webDist);
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    const index = join(root, "index.html");
    if (!existsSync(index)) {
      res.writeHead(503, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(MISSING_DIST);
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://local").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const file = normalize(join(root, pathname));
    const inside = file === root || file.startsWith(root + sep);
    let target = index;
    if (inside && existsSync(file) && statSync(file).isFile()) target = file;
    else if (extname(pathname) && !pathname.endsWith(".html")) {
      // A missing asset is a 404, not the SPA (a stale chunk must not be answered with HTML).
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    const type = MIME[extname(target).toLowerCase()] ?? "application/octet-stream";
    const immutable = target !== index && target.startsWith(join(root, "assets") + sep);
    res.writeHead(200, {
      "content-type": type,
      "content-length": statSync(target).size,
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      "x-content-type-options": "nosniff",
      "content-security-policy": LOCAL_CONTENT_SECURITY_POLICY,
      "x-frame-options": "DENY",
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(target).pipe(res);
  };
}
