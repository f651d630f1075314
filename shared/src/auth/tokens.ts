/**
 * Access and refresh JWTs (jose, HS256) and the authenticated caller's context (docs/product/users.md#sessions).
 *
 * - Access token: `Authorization: Bearer`, `ACCESS_TOKEN_TTL_SECONDS` (900 s). Claims `sub` (user id), `cid`, `tv` (token version).
 * - Refresh token: httpOnly cookie `jrt` scoped to `/api/auth`; claims `sub`, `cid`, `tv`, `jti`. Rotated on every use.
 * - Revocation: every user item has `tokenVersion`; a token whose `tv` differs is revoked (401).
 *
 * Expired access token → 403 `ERR_SESSION_EXPIRED` (the web refreshes once and replays);
 * missing, malformed, or revoked → 401 `ERR_SESSION_EXPIRED` (the web clears the session).
 */
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { getConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { getUser } from "../users/repository.ts";
import type { Profile } from "../users/schema.ts";
import { sdkLogger } from "../log.ts";

/** The verified caller: read fresh from the user item on every request, so profile and queue changes apply at once. */
export interface AuthContext {
  userId: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  name: string;
  email: string;
  queueIds: number[];
  allTicket: "enabled" | "desabled";
  whatsappId: number | null;
  tokenVersion: number;
}

let keyPromise: Promise<Uint8Array> | undefined;
let secretsClient: SecretsManagerClient | undefined;

/** Attempts of one signing-key read from Secrets Manager (backoff 100 ms doubling between them). */
export const SIGNING_KEY_ATTEMPTS = 3;

/**
 * The HS256 signing key: `JWT_SECRET`, else the Secrets Manager secret named by `JWT_SECRET_ARN`. A successful read is
 * kept for the life of the process; a failed one is retried ({@link SIGNING_KEY_ATTEMPTS} tries with backoff) and,
 * when it still fails, NOT cached: the request fails with a 5xx-class error (never a 401 that would log users out)
 * and the next request reads again.
 */
export function signingKey(): Promise<Uint8Array> {
  if (keyPromise) return keyPromise;
  const p = (async () => {
    const cfg = getConfig();
    if (cfg.JWT_SECRET) return new TextEncoder().encode(cfg.JWT_SECRET);
    if (!cfg.JWT_SECRET_ARN) throw new Error("JWT_SECRET or JWT_SECRET_ARN must be set");
    secretsClient ??= new SecretsManagerClient({ logger: sdkLogger });
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await secretsClient.send(new GetSecretValueCommand({ SecretId: cfg.JWT_SECRET_ARN }));
        if (!out.SecretString) throw new Error("JWT secret is empty");
        return new TextEncoder().encode(out.SecretString);
      } catch (err) {
        if (attempt >= SIGNING_KEY_ATTEMPTS) throw new SigningKeyUnavailable(err);
        await new Promise((r) => setTimeout(r, 100 * 2 ** (attempt - 1)));
      }
    }
  })();
  keyPromise = p;
  p.catch(() => {
    if (keyPromise === p) keyPromise = undefined;
  });
  return p;
}

/** The signing key could not be read: a server fault (500), not a bad token. */
export class SigningKeyUnavailable extends Error {
  constructor(cause: unknown) {
    super("JWT signing key unavailable", { cause });
    this.name = "SigningKeyUnavailable";
  }
}

/** Forgets the cached signing key and client (tests that switch secrets). */
export function resetSigningKey(client?: SecretsManagerClient): void {
  keyPromise = undefined;
  secretsClient = client;
}

/** Signs an access token for the user (lifetime `ACCESS_TOKEN_TTL_SECONDS`). */
export async function signAccessToken(u: { id: number; companyId: number; tokenVersion: number; profile: Profile }): Promise<string> {
  return new SignJWT({ cid: u.companyId, tv: u.tokenVersion, profile: u.profile, typ: "access" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(u.id))
    .setIssuedAt()
    .setExpirationTime(`${getConfig().ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(await signingKey());
}

/** Signs a refresh token (lifetime `REFRESH_TOKEN_TTL_SECONDS`); `jti` identifies this rotation step. */
export async function signRefreshToken(u: { id: number; companyId: number; tokenVersion: number }, jti: string): Promise<string> {
  return new SignJWT({ cid: u.companyId, tv: u.tokenVersion, typ: "refresh" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(u.id))
    .setJti(jti)
    .setIssuedAt()
    .setExpirationTime(`${getConfig().REFRESH_TOKEN_TTL_SECONDS}s`)
    .sign(await signingKey());
}

export interface TokenClaims {
  userId: number;
  companyId: number;
  tokenVersion: number;
  jti?: string;
}

/**
 * Verifies a token of the given type (HS256, with `exp`, `iat` and `sub`). Throws `AppError("ERR_SESSION_EXPIRED")`
 * with status 403 when an access token has expired, 401 for anything else that is wrong (a missing claim included).
 */
export async function verifyToken(token: string, typ: "access" | "refresh"): Promise<TokenClaims> {
  const key = await signingKey(); // a key that cannot be read is a server fault (500), never a 401
  try {
    // A token without an expiry would be valid forever, one without an issue time cannot be ours: both are refused.
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["exp", "iat", "sub"] });
    if (payload.typ !== typ || typeof payload.cid !== "number" || typeof payload.tv !== "number" || !payload.sub) {
      throw new AppError("ERR_SESSION_EXPIRED", 401);
    }
    return { userId: Number(payload.sub), companyId: payload.cid, tokenVersion: payload.tv, jti: payload.jti };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired && typ === "access") throw new AppError("ERR_SESSION_EXPIRED", 403);
    throw new AppError("ERR_SESSION_EXPIRED", 401);
  }
}

/** Reads the user item and builds the caller's context; a missing user or a stale token version → 401. */
export async function loadAuthContext(claims: TokenClaims): Promise<AuthContext> {
  const u = await getUser(claims.companyId, claims.userId, { consistent: false });
  if (!u) throw new AppError("ERR_SESSION_EXPIRED", 401);
  if (u.tokenVersion !== claims.tokenVersion) throw new AppError("ERR_SESSION_EXPIRED", 401);
  return {
    userId: u.id,
    companyId: u.companyId,
    profile: u.profile,
    super: u.super,
    name: u.name,
    email: u.email,
    queueIds: u.queueIds,
    allTicket: u.allTicket,
    whatsappId: u.whatsappId,
    tokenVersion: u.tokenVersion,
  };
}

/** Verifies a bearer access token and loads the caller (see {@link verifyToken}, {@link loadAuthContext}). */
export async function authenticate(bearer: string | undefined): Promise<AuthContext> {
  if (!bearer) throw new AppError("ERR_SESSION_EXPIRED", 401);
  return loadAuthContext(await verifyToken(bearer, "access"));
}

/** How long (ms) the HTTP path reuses a caller's context read from the user item. */
export const AUTH_CACHE_MS = 2000;
const AUTH_CACHE_MAX = 10_000;
const authCache = new Map<string, { tokenVersion: number; at: number; ctx: AuthContext }>();

/**
 * {@link authenticate} for the HTTP API (the caller read once, cached briefly): the caller's context is
 * reused for {@link AUTH_CACHE_MS} when the token carries the same token version as the cached read (a token of
 * another version always reads the user item again, so a new login or a revocation is never served from the cache).
 * This process drops a user's entry at once on `user.updated|deleted|loggedIn|revoked` ({@link forgetAuthContext},
 * called by the events listener); other processes see a profile, queue or revocation change within
 * {@link AUTH_CACHE_MS}. Errors as {@link authenticate}. The WebSocket `$connect` keeps reading fresh.
 */
export async function authenticateCached(bearer: string | undefined): Promise<AuthContext> {
  if (!bearer) throw new AppError("ERR_SESSION_EXPIRED", 401);
  const claims = await verifiedClaims(bearer);
  const k = `${claims.companyId}:${claims.userId}`;
  const hit = authCache.get(k);
  const now = Date.now();
  if (hit && hit.tokenVersion === claims.tokenVersion && now - hit.at < AUTH_CACHE_MS) return { ...hit.ctx, queueIds: [...hit.ctx.queueIds] };
  const ctx = await loadAuthContext(claims);
  if (authCache.size >= AUTH_CACHE_MAX) authCache.delete(authCache.keys().next().value!);
  authCache.set(k, { tokenVersion: ctx.tokenVersion, at: now, ctx: { ...ctx, queueIds: [...ctx.queueIds] } });
  return ctx;
}

const verified = new Map<string, { claims: TokenClaims; until: number }>();

/**
 * The claims of an access token whose signature this process verified within {@link AUTH_CACHE_MS} (the same exact
 * token string), never past the token's own expiry; else {@link verifyToken} (errors as it). Saves the HMAC check on
 * every request of a session's burst (so a ticket-list page costs a few ms of CPU in all).
 */
async function verifiedClaims(bearer: string): Promise<TokenClaims> {
  const now = Date.now();
  const hit = verified.get(bearer);
  if (hit && now < hit.until) return hit.claims;
  const claims = await verifyToken(bearer, "access");
  const exp = Number(decodeJwt(bearer).exp ?? 0) * 1000;
  if (verified.size >= AUTH_CACHE_MAX) verified.delete(verified.keys().next().value!);
  verified.set(bearer, { claims, until: Math.min(now + AUTH_CACHE_MS, exp) });
  return claims;
}

/** Drops the cached context of a user (their profile, queues or sessions changed). */
export function forgetAuthContext(companyId: number, userId: number): void {
  authCache.delete(`${companyId}:${userId}`);
}
