/**
 * The one error handler: `AppError` → `{"error": code, ...data}` with the status of the error table
 * (`@atende/shared/errors`; the request's validation answers 400 `ERR_VALIDATION` as one); middy's 404/413 →
 * `ERR_ROUTE_NOT_FOUND` / `ERR_PAYLOAD_TOO_LARGE`; anything else, a zod error included (a schema failing past the
 * edge is our bug: a stored item, an item we built) → 500 `ERR_INTERNAL` without a stack or zod paths (logged as one
 * JSON line).
 */
import type middy from "@middy/core";
import { ZodError } from "zod";
import { AppError } from "@atende/shared/errors";
import { log } from "@atende/shared/log";
import { json, type HttpEvent, type HttpResponse } from "../types.ts";

/** Renders any error as the `{"error": "ERR_..."}` response of the error table. Never leaks a stack. */
export function errorResponse(err: unknown, event?: HttpEvent): HttpResponse {
  if (err instanceof AppError) {
    // A refusal that says when to come back (429) says it in the standard header as well.
    const retry = err.status === 429 ? Number((err.toJSON() as { retryAfterSeconds?: unknown }).retryAfterSeconds) : Number.NaN;
    return json(err.status, err.toJSON(), Number.isFinite(retry) ? { "retry-after": String(Math.ceil(retry)) } : undefined);
  }
  if (err instanceof ZodError) {
    log("error", "schema failed past the edge", { path: event?.rawPath, requestId: event?.requestContext?.requestId, issues: err.issues.slice(0, 5) });
    return json(500, { error: "ERR_INTERNAL" });
  }
  const status = (err as { statusCode?: number })?.statusCode;
  if (status === 404) return json(404, { error: "ERR_ROUTE_NOT_FOUND" });
  if (status === 413) return json(413, { error: "ERR_PAYLOAD_TOO_LARGE" });
  log("error", "unhandled error", { err, path: event?.rawPath, requestId: event?.requestContext?.requestId });
  return json(500, { error: "ERR_INTERNAL" });
}

/** Middleware: turns the request's error into its response (see {@link errorResponse}). */
export const errorHandler = (): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  onError: async (request) => {
    request.response = errorResponse(request.error, request.event);
  },
});
