/**
 * Origin guard, first after the error handler on every route: in the cloud (`ORIGIN_VERIFY_SECRET` set) a
 * request without CloudFront's origin secret header (a direct call to the execute-api endpoint) is refused with 403
 * `ERR_NO_PERMISSION` before any token is read or anything is written. Locally (no secret) it passes everything.
 */
import type middy from "@middy/core";
import { originAllowed } from "@atende/shared/auth/origin";
import { AppError } from "@atende/shared/errors";
import type { HttpEvent, HttpResponse } from "../types.ts";

export const originGuard = (): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  before: async ({ event }) => {
    if (!originAllowed(event.headers)) throw new AppError("ERR_NO_PERMISSION");
  },
});
