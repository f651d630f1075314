/**
 * Request validation with the operation's contract: body (unless the request was multipart), query and path, in
 * that order; a failure is a `ZodError`, answered 400 `ERR_VALIDATION` with the field messages. Nothing is written
 * before this passes. Operations without a query or path schema get the raw string maps.
 */
import type middy from "@middy/core";
import { z } from "zod";
import type { Operation } from "@atende/shared/contract";
import { stateOf, type HttpEvent, type HttpResponse } from "../types.ts";

const Strings = z.record(z.string(), z.string().optional());

export const validate = (op: Pick<Operation, "body" | "query" | "params">): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  before: async ({ event }) => {
    const s = stateOf(event);
    if (op.body && !s.upload) s.body = op.body.parse(s.json);
    s.query = (op.query ?? Strings).parse(event.queryStringParameters ?? {});
    s.params = (op.params ?? Strings).parse(event.pathParameters ?? {});
  },
});
