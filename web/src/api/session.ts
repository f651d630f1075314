/**
 * The browser session (docs/product/users.md#sessions; the token is kept in browser storage): the access token and the
 * logged-in user, persisted in localStorage and shared with React through `useSession()`.
 *
 * The refresh token never reaches JavaScript: it is the httpOnly cookie `jrt` the API sets on login/refresh.
 */
import { useSyncExternalStore } from "react";

/** A queue as embedded in a user (`{id,name,color}`). */
export interface QueueRef {
  id: number;
  name: string;
  color: string;
}

/** The user object returned by POST /api/auth/login, /refresh_token and GET /api/auth/me. */
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  profile: "admin" | "user" | "supervisor";
  super: boolean;
  companyId: number;
  allTicket: "enabled" | "desabled";
  queues: QueueRef[];
  queueIds: number[];
  whatsappId: number | null;
  company: { id: number; name: string; dueDate: string | null; settings: { key: string; value: string }[] };
}

export interface Session {
  token: string;
  user: SessionUser;
}

const TOKEN_KEY = "token";
const USER_KEY = "user";

let current: Session | null = load();
const listeners = new Set<() => void>();

function load(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const user = localStorage.getItem(USER_KEY);
    if (!token || !user) return null;
    return { token: JSON.parse(token) as string, user: JSON.parse(user) as SessionUser };
  } catch {
    return null;
  }
}

function emit() {
  for (const l of listeners) l();
}

/** The current session, or null when logged out. */
export function getSession(): Session | null {
  return current;
}

/** The current access token (JWT), or null. */
export function getToken(): string | null {
  return current?.token ?? null;
}

/** Stores a new session (after login or refresh) and notifies subscribers. */
export function setSession(session: Session): void {
  current = session;
  localStorage.setItem(TOKEN_KEY, JSON.stringify(session.token));
  localStorage.setItem(USER_KEY, JSON.stringify(session.user));
  emit();
}

/** Replaces only the user object (e.g. after a `company-{id}-user` update naming the logged-in user). */
export function updateSessionUser(user: SessionUser): void {
  if (!current) return;
  setSession({ token: current.token, user });
}

/**
 * Clears the session and the local data the app keeps for it (token, user); the route guard then
 * sends the browser to /login. Theme and language choices are kept.
 */
export function clearSession(): void {
  current = null;
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  emit();
}

/** Subscribes to session changes; returns the unsubscribe function. */
export function subscribeSession(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Another tab of the same browser logged in or out: follow it.
if (typeof window !== "undefined") {
  window.addEventListener("storage", (e) => {
    if (e.key === TOKEN_KEY || e.key === USER_KEY || e.key === null) {
      current = load();
      emit();
    }
  });
}

/**
 * Runs `refresh` (the `POST /api/auth/refresh_token` exchange) at most once across the browser's tabs: a Web Lock
 * (`navigator.locks`, name `atende-session-refresh`) serialises the tabs, and a tab that gets the lock after another
 * tab already stored a newer token than `staleToken` adopts that session instead of sending the (now rotated) cookie
 * again — the server would see a reused refresh token. Without Web Locks it just runs `refresh`.
 */
export async function refreshOnceAcrossTabs(staleToken: string | null, refresh: () => Promise<Session | null>): Promise<Session | null> {
  const run = async (): Promise<Session | null> => {
    const stored = load();
    if (stored && stored.token !== staleToken) {
      current = stored;
      emit();
      return stored;
    }
    return refresh();
  };
  const locks = typeof navigator !== "undefined" ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  return locks ? locks.request("atende-session-refresh", run) : run();
}

/** React hook: the current session, re-rendering on change. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/**
 * Reads the `tv` (token version) claim of an access token without verifying it (the server verifies);
 * returns -1 when the token is not a readable JWT.
 */
export function tokenVersionOf(token: string | null): number {
  if (!token) return -1;
  try {
    const payload = token.split(".")[1];
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(payload.length / 4) * 4, "="));
    const tv = (JSON.parse(json) as { tv?: unknown }).tv;
    return typeof tv === "number" ? tv : -1;
  } catch {
    return -1;
  }
}

