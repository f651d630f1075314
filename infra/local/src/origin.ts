/**
 * The local server is for the machine it runs on: it binds 127.0.0.1 by default, and every request must
 * name this server in `Host` (no DNS rebinding) and, when a browser sends `Origin`, come from this server's own page
 * (no other site driving `/sim`, `@connections` or the API from a visitor's browser). The cloud has CloudFront.
 */
import type { IncomingMessage } from "node:http";

/** Interface the local server binds unless `HOST` says otherwise (`HOST=0.0.0.0` to expose it on purpose). */
export const DEFAULT_LOCAL_HOST = "127.0.0.1";

const LOCAL_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** `http://localhost:<port>`, `http://127.0.0.1:<port>`, `http://[::1]:<port>`: the origins of this server's own page. */
export function localOrigins(port: number): string[] {
  return LOCAL_NAMES.map((h) => `http://${h}:${port}`);
}

/**
 * True when the request may be served: its `Host` is this server (`localhost`/`127.0.0.1`/`[::1]` with this port, or
 * a name listed in `extraHosts`), and its `Origin`, if any, is one of {@link localOrigins} (or `extraOrigins`).
 * Server-side callers (the AWS SDK posting to `@connections`, curl) send no `Origin` and pass.
 */
export function isAllowedLocalRequest(req: Pick<IncomingMessage, "headers">, port: number, extra: { hosts?: string[]; origins?: string[] } = {}): boolean {
  const host = String(req.headers.host ?? "").toLowerCase();
  const hosts = [...LOCAL_NAMES.map((h) => `${h}:${port}`), ...(extra.hosts ?? [])];
  if (!hosts.includes(host)) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return [...localOrigins(port), ...(extra.origins ?? [])].includes(String(origin).toLowerCase());
}
