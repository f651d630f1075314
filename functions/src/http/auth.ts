/**
 * Auth area (attendance.md §4 Session, §7; issue 2 §3): login, refresh-token rotation, logout, me, version.
 * The refresh token travels only in the httpOnly `jrt` cookie (Path=/api/auth, SameSite=Strict, Secure over https).
 */
import { login, logout, me, refresh, type SessionResult } from "@atende/shared/auth/service";
import { getConfig } from "@atende/shared/config";
import { AppError } from "@atende/shared/errors";
import { areaHandler, reply, type RequestContext } from "./core/http.ts";
import { clearRefreshCookie, REFRESH_COOKIE, refreshCookie } from "./core/cookies.ts";

/** The product version the web shows (attendance.md §9). */
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

/**
 * The client IP for login throttling: CloudFront's `CloudFront-Viewer-Address` (`ip:port`, set by CloudFront, which
 * fronts `/api/*` in the cloud) when present, else the source IP API Gateway saw.
 */
export function clientIp(ctx: Pick<RequestContext<unknown, unknown, unknown, null>, "event" | "ip">): string {
  const h = ctx.event.headers ?? {};
  const viewer = h["cloudfront-viewer-address"] ?? h["CloudFront-Viewer-Address"];
  const m = viewer?.match(/^\[?(.+?)\]?:\d+$/);
  return m?.[1] ?? ctx.ip;
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

  "GET /api/version": async () => ({ version: APP_VERSION }),
});
