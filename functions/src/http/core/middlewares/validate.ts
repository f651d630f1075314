/**
 * Request validation with the operation's contract: body (unless the request was multipart), query and path, in
 * that order; a failure is answered 400 `ERR_VALIDATION` with the field messages (`AppError`). Nothing is written
 * before this passes. This is the only place a schema failure answers 400: any other `ZodError` is our bug (500). Operations without a query or path schema get the raw string maps.
 */
import type middy from "@middy/core";
import { z, type ZodType } from "zod";
import { AppError } from "@atende/shared/errors";
import type { Operation } from "@atende/shared/contract";
import { stateOf, type HttpEvent, type HttpResponse } from "../types.ts";

const Strings = z.record(z.string(), z.string().optional());

/** `schema.parse(value)`, a failure as 400 `ERR_VALIDATION` `fields: [{path, message}]`. */
function parseInput<T>(schema: ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new AppError("ERR_VALIDATION", { fields: r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
}

export const validate = (op: Pick<Operation, "body" | "query" | "params">): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  before: async ({ event }) => {
    const s = stateOf(event);
    if (op.body && !s.upload) s.body = parseInput(op.body, s.json);
    s.query = parseInput(op.query ?? Strings, event.queryStringParameters ?? {});
    s.params = parseInput(op.params ?? Strings, event.pathParameters ?? {});
  },
});
