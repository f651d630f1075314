/**
 * Shapes every part of the HTTP pipeline shares. Events are API Gateway HTTP API payload 2.0.
 */
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import type { AuthContext } from "@atende/shared/auth/tokens";
import type { ApiCaller } from "@atende/shared/messagesApi/service";

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResponse = { statusCode: number; headers?: Record<string, string>; body?: string; cookies?: string[]; isBase64Encoded?: boolean };

/** One uploaded file of a multipart body. */
export interface Upload {
  filename: string;
  mimetype: string;
  content: Buffer;
}

/** What the middlewares found out about a request, read by the route's implementation. */
export interface PipelineState {
  auth: AuthContext | null;
  /** The connection whose token authenticated an `apiToken` operation. */
  apiCaller?: ApiCaller;
  rawBody: Buffer;
  /** The body after JSON parsing (before validation; `undefined` for multipart). */
  json: unknown;
  body: unknown;
  query: unknown;
  params: unknown;
  /** Files (`medias`) and captions (`body`) of a multipart body, when the request was one; `fields`: its other text fields (first value each). */
  upload?: { files: Upload[]; captions: string[]; fields?: Record<string, string> };
}

const states = new WeakMap<object, PipelineState>();

/** The state of the request carried by `event` (created on first use). */
export function stateOf(event: HttpEvent): PipelineState {
  let s = states.get(event);
  if (!s) {
    s = { auth: null, rawBody: Buffer.alloc(0), json: undefined, body: undefined, query: {}, params: {} };
    states.set(event, s);
  }
  return s;
}

/** A header by case-insensitive name. */
export function header(event: HttpEvent, name: string): string | undefined {
  const h = event.headers ?? {};
  const lower = name.toLowerCase();
  return h[name] ?? h[lower] ?? Object.entries(h).find(([k]) => k.toLowerCase() === lower)?.[1];
}

/** JSON response with the API's standard headers. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}, cookies: string[] = []): HttpResponse => ({
  statusCode: status,
  headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  body: body === undefined ? "" : JSON.stringify(body),
  ...(cookies.length ? { cookies } : {}),
});
