/**
 * The one HTTP client of the SPA: aws-amplify's REST API category pointed at `/api` on the page's
 * origin, with a headers function that supplies the bearer token, and the session rule in ONE place:
 * - 403 `ERR_SESSION_EXPIRED` (expired access token) → refresh once (`POST /api/auth/refresh_token`, cookie) → replay;
 * - 401 (any code) → clear the session (the route guard then shows /login).
 * A 403 with any other code (e.g. `ERR_NO_PERMISSION`) is an ordinary error and never triggers a refresh.
 */
import { Amplify } from "aws-amplify";
import { ApiError, del, get, patch, post, put } from "aws-amplify/api";
import { reportApi } from "./health.ts";
import { clearSession, getToken, refreshOnceAcrossTabs, setSession, type Session } from "./session.ts";

export const API_NAME = "atende";

let configured = false;

/** Configures Amplify's REST category once (endpoint `location.origin + '/api'`, bearer headers, no retries). */
export function configureApi(): void {
  if (configured) return;
  configured = true;
  Amplify.configure(
    { API: { REST: { [API_NAME]: { endpoint: `${location.origin}/api` } } } },
    {
      API: {
        REST: {
          headers: async () => {
            const token = getToken();
            return token ? { Authorization: `Bearer ${token}` } : ({} as Record<string, string>);
          },
          retryStrategy: { strategy: "no-retry" },
          defaultAuthMode: "none",
        },
      },
    },
  );
}

/** An HTTP failure of the API: status, the `error` code when the body had one, and the parsed body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly body: unknown,
    readonly rawText: string,
  ) {
    super(code ?? (rawText || `HTTP ${status}`));
    this.name = "HttpError";
  }
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/**
 * Methods whose body the REST category drops without a word (Amplify's `get` and `del` send none): a call with a
 * body is refused at the type level here and at run time in development ({@link apiRequest}). A removal that needs a
 * payload (a list of ids) is a POST.
 */
export type BodylessMethod = "GET" | "DELETE";

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** Skip the 403/401 session rule (login and refresh themselves). */
  noSessionRule?: boolean;
  /** Extra request headers; an `Authorization` here replaces the session's bearer (the messages API's test form). */
  headers?: Record<string, string>;
}

/** The options of a call with `method`: no `body` for a {@link BodylessMethod}. */
export type RequestOptionsOf<M extends Method> = M extends BodylessMethod ? Omit<RequestOptions, "body"> & { body?: undefined } : RequestOptions;

/** True for a method whose body would be dropped. */
const isBodyless = (m: Method): m is BodylessMethod => m === "GET" || m === "DELETE";

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toHttpError(e: unknown): HttpError | unknown {
  if (e instanceof ApiError && e.response) {
    const text = e.response.body ?? "";
    const body = parseBody(text);
    const code = body && typeof body === "object" && typeof (body as { error?: unknown }).error === "string" ? (body as { error: string }).error : undefined;
    return new HttpError(e.response.statusCode, code, body, typeof body === "string" ? body : text);
  }
  return e;
}

async function send<T>(method: Method, path: string, opts: RequestOptions): Promise<T> {
  configureApi();
  const queryParams: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null && v !== "") queryParams[k] = String(v);
  const options: { queryParams?: Record<string, string>; body?: never; headers?: Record<string, string> } = {};
  if (opts.headers) options.headers = opts.headers;
  if (Object.keys(queryParams).length) options.queryParams = queryParams;
  if (opts.body !== undefined && !isBodyless(method)) options.body = opts.body as never;
  const input = { apiName: API_NAME, path, options };
  try {
    const op =
      method === "GET" ? get(input) : method === "POST" ? post(input) : method === "PUT" ? put(input) : method === "PATCH" ? patch(input) : del(input);
    const res = await op.response;
    reportApi(true);
    const text = "body" in res && res.body ? await res.body.text() : "";
    return parseBody(text) as T;
  } catch (e) {
    const err = toHttpError(e);
    // A 5xx or no answer at all: the shell shows the service as unavailable until it answers again.
    reportApi(err instanceof HttpError && err.status < 500);
    throw err;
  }
}

let refreshing: Promise<Session | null> | null = null;

/**
 * Exchanges the refresh cookie for a new access token (`POST /api/auth/refresh_token`); concurrent callers share
 * one request. Stores and returns the new session, or null when the refresh was refused.
 */
export function refreshSession(): Promise<Session | null> {
  if (!refreshing) {
    const stale = getToken();
    refreshing = (async () => {
      try {
        return await refreshOnceAcrossTabs(stale, async () => {
          const res = await fetch("/api/auth/refresh_token", { method: "POST", credentials: "include" });
          if (!res.ok) return null;
          const data = (await res.json()) as Session;
          if (!data?.token || !data?.user) return null;
          setSession({ token: data.token, user: data.user });
          return data;
        });
      } catch {
        return null;
      } finally {
        setTimeout(() => {
          refreshing = null;
        }, 0);
      }
    })();
  }
  return refreshing;
}

let rotation: Promise<unknown> | null = null;

/**
 * Runs `change`, a request that replaces this tab's session (a self password change answers with new tokens and
 * revokes the old ones at once, closing the tab's socket). While it runs, a 401 or an expired-session answer to
 * another request waits for it instead of logging out, then replays with the new token (see `apiRequest`).
 * @returns what `change` returns; its error is rethrown unchanged.
 */
export async function rotatingSession<T>(change: () => Promise<T>): Promise<T> {
  const run = change();
  rotation = run;
  try {
    return await run;
  } finally {
    if (rotation === run) rotation = null;
  }
}

/**
 * Calls the API (`path` relative to `/api`, e.g. `/users`) and returns the parsed JSON body (undefined when empty).
 * Applies the session rule: 403 `ERR_SESSION_EXPIRED` → one refresh and one replay; 401 → session cleared. An answer
 * to an older token than the current one (the session was replaced while the request was on its way, see
 * `rotatingSession`) is replayed once with the current token instead.
 * A body with a GET or DELETE is a mistake (it would never reach the server): refused in development, logged in a
 * production build (which sends the call without it, as before).
 * @throws HttpError for any non-2xx answer (after the rule), or the network error; in development an `Error` for a
 * GET or DELETE given a body.
 */
export async function apiRequest<T = unknown, M extends Method = Method>(method: M, path: string, opts: RequestOptionsOf<M> = {} as RequestOptionsOf<M>): Promise<T> {
  if (opts.body !== undefined && isBodyless(method)) {
    const msg = `${method} ${path}: a ${method} carries no body (it would be dropped); send a POST instead`;
    if (import.meta.env.DEV) throw new Error(msg);
    console.error(msg);
  }
  return requestWithSessionRule<T>(method, path, opts);
}

async function requestWithSessionRule<T>(method: Method, path: string, opts: RequestOptions): Promise<T> {
  const sentWith = getToken();
  try {
    return await send<T>(method, path, opts);
  } catch (e) {
    if (!(e instanceof HttpError) || opts.noSessionRule) throw e;
    const refused = e.status === 401 || (e.status === 403 && e.code === "ERR_SESSION_EXPIRED");
    if (refused && rotation) await rotation.catch(() => undefined);
    if (refused && getToken() && getToken() !== sentWith) return send<T>(method, path, opts);
    if (e.status === 403 && e.code === "ERR_SESSION_EXPIRED") {
      const fresh = await refreshSession();
      if (!fresh) {
        clearSession();
        throw e;
      }
      try {
        return await send<T>(method, path, opts);
      } catch (e2) {
        if (e2 instanceof HttpError && e2.status === 401) clearSession();
        throw e2;
      }
    }
    if (e.status === 401) clearSession();
    throw e;
  }
}
