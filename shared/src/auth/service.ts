/**
 * Sessions (docs/product/users.md#sessions).
 *
 * - `login`: throttled per IP and per email+IP, slowed per email (throttle.ts); verifies the bcrypt hash; refuses a company whose due date is past
 *   (401 `ERR_SUBSCRIPTION_EXPIRED` `{dueDate}`) except to super users (they extend due dates); warns when fewer than 5 whole days remain (`dueDateWarningDays`).
 *   Single login: every login increments the user's `tokenVersion` (older access and refresh tokens stop working)
 *   and publishes `company-{id}-auth` `{action: "update", user: {id, email, companyId}, tokenVersion}` to that user's sockets.
 * - `refresh`: the refresh token (cookie) is rotated on every use; the user item holds the one valid `refreshJti`.
 *   Presenting an older (already rotated) token revokes the whole session (reuse detection) → 401, except the token
 *   rotated away in the last {@link REFRESH_REUSE_GRACE_SECONDS} s (two tabs refreshing at once), which is answered
 *   with the current session.
 * - `logout`: revokes the session (token version bump) and marks the user offline.
 */
import { can } from "../access/permissions.ts";
import { randomUUID } from "node:crypto";
import { getConfig } from "../config.ts";
import { getCompany, companySummary } from "../companies/service.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { dispatch } from "../events/index.ts";
import "../users/events.ts";
import { bumpTokenVersion, getEmailOwner, getUser, patchUser } from "../users/repository.ts";
import type { PublicUser, UserItem } from "../users/schema.ts";
import { hashPassword, publicUser, setUserOnline, verifyPassword } from "../users/service.ts";
import { clearLoginFailures, countLoginAttempt } from "./throttle.ts";
import { signAccessToken, signRefreshToken, verifyToken } from "./tokens.ts";

/**
 * Seconds a refresh token that was just rotated away stays acceptable (two tabs refreshing at the same moment send
 * the same cookie; the second gets the session the first created instead of revoking everything). A token presented
 * later than that is reuse and revokes the session.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** The subscription warning threshold in days: the login warns when fewer than 5 whole days remain. */
export const DUE_DATE_WARNING_DAYS = 5;
const DAY_MS = 86_400_000;

import { LoginBody } from "./contract.ts";
export { LoginBody };

/** The logged-in user as login, refresh and me return it. */
export type SessionUser = PublicUser & {
  company: { id: number; name: string; dueDate: string | null; settings: { key: string; value: string }[] };
};

/** What login and refresh give the HTTP layer: the JSON body and the refresh token to put in the cookie. */
export interface SessionResult {
  token: string;
  user: SessionUser;
  dueDateWarningDays?: number;
  refreshToken: string;
  refreshMaxAgeSeconds: number;
}

let dummyHash: Promise<string> | undefined;
/** A hash to compare against when the email is unknown, so both failures cost the same time. */
const timingDummy = () => (dummyHash ??= hashPassword(randomUUID()));

/** Whole days left before `dueDate` (floor), or `undefined` when there is no due date. Negative once past. */
export function daysUntil(dueDate: string | null, now = Date.now()): number | undefined {
  if (!dueDate) return undefined;
  return Math.floor((new Date(dueDate).getTime() - now) / DAY_MS);
}

/** True when the company's due date is in the past. */
export const isExpired = (dueDate: string | null, now = Date.now()) => !!dueDate && new Date(dueDate).getTime() < now;

/** The user with secrets removed and the company block (`{id, name, dueDate, settings}`). */
export async function sessionUser(u: UserItem): Promise<SessionUser> {
  const [pub, company] = await Promise.all([publicUser(u), companySummary(u.companyId, u)]);
  return { ...pub, company };
}

async function issue(u: UserItem, jti: string): Promise<{ token: string; refreshToken: string; refreshMaxAgeSeconds: number }> {
  const [token, refreshToken] = await Promise.all([
    signAccessToken({ id: u.id, companyId: u.companyId, tokenVersion: u.tokenVersion, profile: u.profile }),
    signRefreshToken({ id: u.id, companyId: u.companyId, tokenVersion: u.tokenVersion }, jti),
  ]);
  return { token, refreshToken, refreshMaxAgeSeconds: getConfig().REFRESH_TOKEN_TTL_SECONDS };
}

/**
 * `POST /api/auth/login`. Errors: 429 `ERR_TOO_MANY_ATTEMPTS` (the attempt is counted before the password check; see
 * throttle.ts: per IP and per email+IP, progressive delay per email), 401
 * `ERR_INVALID_CREDENTIALS`, 401 `ERR_COMPANY_INACTIVE` (company switched off), 401 `ERR_SUBSCRIPTION_EXPIRED`
 * `{dueDate}` (no token issued).
 */
export async function login(body: LoginBody, ip: string): Promise<SessionResult> {
  await countLoginAttempt(body.email, ip); // counted before the password check: a parallel burst cannot pass
  const owner = await getEmailOwner(body.email);
  const found = owner ? await getUser(owner.companyId, owner.userId) : undefined;
  const ok = found ? await verifyPassword(body.password, found.passwordHash) : await verifyPassword(body.password, await timingDummy()).then(() => false);
  if (!found || !ok) throw new AppError("ERR_INVALID_CREDENTIALS");
  const company = await getCompany(found.companyId);
  if (!company) throw new AppError("ERR_INVALID_CREDENTIALS");
  // Super users run the platform (they extend due dates): their own company's due date never locks them out.
  if (!can(found, "subscription:pastDueDate") && !company.status) throw new AppError("ERR_COMPANY_INACTIVE");
  if (!can(found, "subscription:pastDueDate") && isExpired(company.dueDate)) throw new AppError("ERR_SUBSCRIPTION_EXPIRED", { dueDate: company.dueDate });

  const jti = randomUUID();
  const u = await bumpTokenVersion(found.companyId, found.id, jti);
  if (!u) throw new AppError("ERR_INVALID_CREDENTIALS");
  await clearLoginFailures(body.email, ip);
  const tokens = await issue(u, jti);
  await dispatch({ type: "user.loggedIn", companyId: u.companyId, user: { id: u.id, email: u.email, companyId: u.companyId }, tokenVersion: u.tokenVersion });
  const days = can(u, "subscription:pastDueDate") ? undefined : daysUntil(company.dueDate);
  return { ...tokens, user: await sessionUser(u), ...(days !== undefined && days < DUE_DATE_WARNING_DAYS ? { dueDateWarningDays: days } : {}) };
}

/** Bumps the user's token version (every token and open socket of theirs stops working) and tells the listeners. */
export async function revokeSessions(u: UserItem): Promise<void> {
  const bumped = await bumpTokenVersion(u.companyId, u.id);
  await dispatch({ type: "user.revoked", companyId: u.companyId, userId: u.id, tokenVersion: bumped?.tokenVersion ?? u.tokenVersion + 1 });
}

/**
 * `POST /api/auth/refresh_token`: exchanges the refresh token for a new access token and a new refresh token.
 * Missing, invalid, expired or revoked → 401 `ERR_SESSION_EXPIRED`; an already-used token → the session is revoked and
 * 401; the company's due date passed → 401 `ERR_SUBSCRIPTION_EXPIRED` `{dueDate}`.
 */
export async function refresh(refreshToken: string | undefined): Promise<SessionResult> {
  if (!refreshToken) throw new AppError("ERR_SESSION_EXPIRED");
  const claims = await verifyToken(refreshToken, "refresh");
  const u = await getUser(claims.companyId, claims.userId);
  if (!u || u.tokenVersion !== claims.tokenVersion) throw new AppError("ERR_SESSION_EXPIRED");
  const now = Date.now();
  const inGrace = (x: UserItem) => !!claims.jti && x.prevRefreshJti === claims.jti && (x.prevRefreshUntil ?? 0) > now && !!x.refreshJti;
  if (!claims.jti || (claims.jti !== u.refreshJti && !inGrace(u))) {
    log("warn", "auth: refresh token reused, session revoked", { companyId: u.companyId, userId: u.id });
    await revokeSessions(u);
    throw new AppError("ERR_SESSION_EXPIRED");
  }
  const company = await getCompany(u.companyId);
  if (!company) throw new AppError("ERR_SESSION_EXPIRED");
  if (!can(u, "subscription:pastDueDate") && !company.status) throw new AppError("ERR_COMPANY_INACTIVE");
  if (!can(u, "subscription:pastDueDate") && isExpired(company.dueDate)) throw new AppError("ERR_SUBSCRIPTION_EXPIRED", { dueDate: company.dueDate });

  let jti: string;
  let rotated: UserItem | undefined;
  if (claims.jti === u.refreshJti) {
    jti = randomUUID();
    rotated = await patchUser(
      u.companyId,
      u.id,
      { refreshJti: jti, prevRefreshJti: claims.jti, prevRefreshUntil: now + REFRESH_REUSE_GRACE_SECONDS * 1000 },
      { expectTokenVersion: u.tokenVersion, expectRefreshJti: claims.jti },
    );
    if (!rotated) {
      // Another tab rotated this very token a moment ago: answer with the session it created.
      const again = await getUser(u.companyId, u.id);
      if (again && again.tokenVersion === claims.tokenVersion && inGrace(again)) rotated = again;
    }
  } else rotated = u; // the token rotated away within the grace period (checked above)
  if (!rotated) {
    log("warn", "auth: concurrent refresh with one token, session revoked", { companyId: u.companyId, userId: u.id });
    await revokeSessions(u);
    throw new AppError("ERR_SESSION_EXPIRED");
  }
  jti = rotated.refreshJti!;
  const tokens = await issue(rotated, jti);
  return { ...tokens, user: await sessionUser(rotated) };
}

/**
 * `DELETE /api/auth/logout`: revokes the session named by the refresh token, else by the bearer access token (a
 * token that is already invalid changes nothing) and marks the user offline. Never throws for bad tokens.
 */
export async function logout(refreshToken: string | undefined, accessToken: string | undefined): Promise<void> {
  const claims =
    (refreshToken ? await verifyToken(refreshToken, "refresh").catch(() => undefined) : undefined) ??
    (accessToken ? await verifyToken(accessToken, "access").catch(() => undefined) : undefined);
  if (!claims) return;
  const u = await getUser(claims.companyId, claims.userId);
  if (!u || u.tokenVersion !== claims.tokenVersion) return;
  await revokeSessions(u);
  await setUserOnline(u.companyId, u.id, false);
}

/** `GET /api/auth/me`: the caller as login returns it. */
export async function me(companyId: number, userId: number): Promise<SessionUser> {
  const u = await getUser(companyId, userId);
  if (!u) throw new AppError("ERR_SESSION_EXPIRED");
  return sessionUser(u);
}
