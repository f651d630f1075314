/**
 * The one error handler: `AppError` → `{"error": code, ...data}` with the status of the error table
 * (`@atende/shared/errors`); a zod error → 400 `ERR_VALIDATION` with `fields: [{path, message}]`; middy's 404/413 →
 * `ERR_ROUTE_NOT_FOUND` / `ERR_PAYLOAD_TOO_LARGE`; anything else → 500 `ERR_INTERNAL` without a stack (logged as one
 * JSON line).
 */
import type middy from "@middy/core";
import { ZodError } from "zod";
import { AppError } from "@atende/shared/errors";
import { log } from "@atende/shared/log";
import { json, type HttpEvent, type HttpResponse } from "../types.ts";

/** Renders any error as the `{"error": "ERR_..."}` response of the error table. Never leaks a stack. */
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

/** Middleware: turns the request's error into its response (see {@link errorResponse}). */
export const errorHandler = (): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  onError: async (request) => {
    request.response = errorResponse(request.error, request.event);
  },
});
