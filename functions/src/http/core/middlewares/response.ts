/**
 * Response contract check, on in tests (`VITEST` set) and off in production: every 2xx JSON answer must parse with
 * the operation's `response` schema, so a shape change fails the integration test that exercises the route instead
 * of a screen. A mismatch becomes a 500 `ERR_INTERNAL` carrying `contractIssues` (test runs only) and is logged.
 */
import type middy from "@middy/core";
import type { Operation } from "@atende/shared/contract";
import { log } from "@atende/shared/log";
import { json, type HttpEvent, type HttpResponse } from "../types.ts";

/** True when answers are checked against their contracts (the test runner). */
export const checkResponses = () => Boolean(process.env.VITEST);

/** The issues of `body` against the operation's response schema, or [] when it parses. */
export function responseIssues(op: Pick<Operation, "response">, body: unknown): { path: string; message: string }[] {
  const r = op.response.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
}

/** The middleware that replaces a 2xx answer its operation's `response` schema refuses with a 500 naming the issues. */
export const responseContract = (op: Operation): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  after: async (request) => {
    const res = request.response;
    if (!res || res.statusCode < 200 || res.statusCode >= 300 || res.statusCode === 204) return;
    const issues = responseIssues(op, res.body ? JSON.parse(res.body) : undefined);
    if (!issues.length) return;
    log("error", "response does not match its contract", { operation: `${op.method} ${op.path}`, issues });
    request.response = json(500, { error: "ERR_INTERNAL", operation: `${op.method} ${op.path}`, contractIssues: issues });
  },
});
