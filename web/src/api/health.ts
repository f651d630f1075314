/**
 * The service's health as this tab sees it: the API (`api`) and the realtime socket (`socket`), each
 * "ok" or "down", so the shell shows a visible "service unavailable / reconnecting" banner instead of retrying in
 * silence.
 * - The HTTP client reports every answer: a 5xx or no answer at all (network failure) → api down; any other answer
 *   (2xx, 4xx) → api ok. While down, `GET /api/version` (public) is probed every {@link API_PROBE_MS} ms, so the
 *   banner goes away by itself once the service answers again.
 * - The realtime client reports its socket: opened → ok; closed while it should be open → down (until it reopens).
 */
import { useSyncExternalStore } from "react";

export interface ServiceHealth {
  api: "ok" | "down";
  socket: "ok" | "down";
}

/** Interval of the API probe while the API is down, in ms. */
export const API_PROBE_MS = 3000;

let state: ServiceHealth = { api: "ok", socket: "ok" };
const listeners = new Set<() => void>();
let probe: ReturnType<typeof setInterval> | null = null;

function set(next: Partial<ServiceHealth>) {
  const merged = { ...state, ...next };
  if (merged.api === state.api && merged.socket === state.socket) return;
  state = merged;
  if (state.api === "down" && !probe) {
    probe = setInterval(() => {
      fetch("/api/version", { cache: "no-store" })
        .then((r) => reportApi(r.status < 500))
        .catch(() => undefined);
    }, API_PROBE_MS);
  } else if (state.api === "ok" && probe) {
    clearInterval(probe);
    probe = null;
  }
  for (const l of listeners) l();
}

/** The HTTP client's report: `answered` false for a 5xx or a request that got no answer. */
export function reportApi(answered: boolean): void {
  set({ api: answered ? "ok" : "down" });
}

/** The realtime client's report: `open` false when its socket closed while it should be open. */
export function reportSocket(open: boolean): void {
  set({ socket: open ? "ok" : "down" });
}

/** The current health (for tests and non-React callers). */
export const serviceHealth = (): ServiceHealth => state;

/** The current health, re-rendering on change. */
export function useServiceHealth(): ServiceHealth {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
