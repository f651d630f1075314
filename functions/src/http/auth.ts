/**
 * Auth area (docs/product/users.md#sessions): login, refresh-token rotation, logout, me, version.
 * The refresh token travels only in the httpOnly `jrt` cookie (Path=/api/auth, SameSite=Strict, Secure over https).
 */
import { isIP } from "node:net";
import { hasOriginSecret } from "@atende/shared/auth/origin";
import { login, logout, me, refresh, type SessionResult } from "@atende/shared/auth/service";
import { issueWsTicket } from "@atende/shared/auth/ws-ticket";
import { requestPasswordReset, resetPassword } from "@atende/shared/auth/password-reset";
import { getConfig } from "@atende/shared/config";
import { AppError } from "@atende/shared/errors";
import { areaHandler, reply, type RequestContext } from "./core/http.ts";
import { clearRefreshCookie, REFRESH_COOKIE, refreshCookie } from "./core/cookies.ts";

/** The product version the web shows. */
export const APP_VERSION = "5.3.5";

const secureOf = (ctx: Pick<RequestContext<unknown, unknown, unknown, null>, "secure">) => ctx.secure || getConfig().SECURE_COOKIES === true;

const sessionReply = (r: SessionResult, secure: boolean) => {
  const { refreshToken, refreshMaxAgeSeconds, ...body } = r;
  return reply(200, body, { cookies: [refreshCookie(refreshToken, refreshMaxAgeSeconds, secure)] });
};

const bearer = (ctx: RequestContext<unknown, unknown, unknown, null>) => {
  const h = ctx.event.headers ?? {};
  const v = h.authorization ?? h.Authorization;
  return v?.match(/^Bearer\s+(.+)$/i)?.[1];
};

export { ORIGIN_VERIFY_HEADER } from "@atende/shared/auth/origin";
/** Header the `/api/*` CloudFront Function sets from the viewer's address (overwriting whatever the caller sent). */
export const VIEWER_IP_HEADER = "x-atende-viewer-ip";

/**
 * The client IP for login throttling, never taken from a header a caller can forge: the viewer IP CloudFront set
 * (`x-atende-viewer-ip`) only when the request also carries CloudFront's origin secret (`x-atende-origin` =
 * `ORIGIN_VERIFY_SECRET`); otherwise (a direct call to the execute-api endpoint, the local server) the source IP
 * API Gateway saw.
 */
export function clientIp(ctx: Pick<RequestContext<unknown, unknown, unknown, null>, "event" | "ip">): string {
  const h = ctx.event.headers ?? {};
  const viewer = h[VIEWER_IP_HEADER]?.trim();
  if (hasOriginSecret(h) && viewer && isIP(viewer)) return viewer;
  return ctx.ip;
}

export const handler = areaHandler("auth", {
  "POST /api/auth/login": async (ctx) => sessionReply(await login(ctx.body, clientIp(ctx)), secureOf(ctx)),

  "POST /api/auth/refresh_token": async (ctx) => {
    const secure = secureOf(ctx);
    try {
      return sessionReply(await refresh(ctx.cookies[REFRESH_COOKIE]), secure);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) return reply(401, err.toJSON(), { cookies: [clearRefreshCookie(secure)] });
      throw err;
    }
  },

  "DELETE /api/auth/logout": async (ctx) => {
    await logout(ctx.cookies[REFRESH_COOKIE], bearer(ctx));
    return reply(204, undefined, { cookies: [clearRefreshCookie(secureOf(ctx))] });
  },

  "GET /api/auth/me": async (ctx) => me(ctx.auth.companyId, ctx.auth.userId),

  "POST /api/auth/ws-ticket": async (ctx) => issueWsTicket(ctx.auth),

  "GET /api/version": async () => ({ version: APP_VERSION }),

  "POST /api/auth/forgot-password": async (ctx) => requestPasswordReset(ctx.body, clientIp(ctx)),

  "POST /api/auth/reset-password": async (ctx) => resetPassword(ctx.body, clientIp(ctx)),
});
