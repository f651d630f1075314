/**
 * The refresh-token cookie (docs/product/users.md#sessions): httpOnly, SameSite=Strict, Path=/api/auth, Secure over https.
 */
export const REFRESH_COOKIE = "jrt";

/** `Set-Cookie` value that stores the refresh token for `maxAgeSeconds`. */
export function refreshCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${REFRESH_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/api/auth; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** `Set-Cookie` value that clears the refresh token. */
export function clearRefreshCookie(secure: boolean): string {
  return `${REFRESH_COOKIE}=; HttpOnly; SameSite=Strict; Path=/api/auth; Max-Age=0${secure ? "; Secure" : ""}`;
}
