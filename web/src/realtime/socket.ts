/**
 * The realtime socket (docs/product/realtime.md): ONE WebSocket per tab at `/ws?ticket=<single-use
 * ticket from POST /api/auth/ws-ticket>` on the page's origin (the access token never goes in the URL). Frames in are `{"event":"company-{id}-{name}","data":{...}}`; frames out are
 * `{"action":"joinNotification"|"joinTickets"|"joinChatBox"|"leaveChatBox"|"userStatus", ...}`.
 *
 * - Reconnects with exponential backoff (1 s doubling, cap 30 s) plus jitter, each time with a fresh token
 *   (the token is refreshed first when it expires within 30 s; a refused refresh clears the session).
 * - Re-sends the joins the app asked for (`join`) after every reconnect and calls `onOpen` after every open, the
 *   first included, so the app refetches what it may have missed: a list fetched before the socket listened misses a
 *   change made between its read and the socket's registration (another tab's new tag, say).
 * - Sends `{"action":"userStatus"}` every 300000 ms while open.
 * - Sends `{"action":"visibility","visible":bool}` on open and whenever the tab is shown or hidden: no push
 *   notification reaches a user while one of their tabs is visible (docs/product/push.md#visible-tab).
 * - Reports its state to `api/health.ts` (closed while it should be open → the shell's "reconnecting" banner).
 */
import { apiRequest, refreshSession } from "../api/client.ts";
import { reportSocket } from "../api/health.ts";
import { clearSession, getToken } from "../api/session.ts";

/** Interval of the user status ping (a product constant, 5 minutes), in ms. */
export const USER_STATUS_INTERVAL_MS = 300_000;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

export type OutFrame = { action: string; [k: string]: unknown };
export interface InFrame {
  event: string;
  data: unknown;
}

export interface RealtimeOptions {
  /** Called for every well-formed frame. */
  onFrame: (frame: InFrame) => void;
  /** Called after every open; `reconnected` is false for the first one of a `start`. */
  onOpen?: (reconnected: boolean) => void;
}

function tokenExpiresSoon(token: string): boolean {
  try {
    const p = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: number };
    return typeof p.exp === "number" && p.exp * 1000 < Date.now() + 30_000;
  } catch {
    return false;
  }
}

/** Backoff delay for the given attempt (0-based): min(cap, base·2^n), scaled by a random factor in [0.5, 1). */
export function backoffDelay(attempt: number, random = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

const key = (f: OutFrame) => JSON.stringify(f);

class RealtimeClient {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private statusTimer: ReturnType<typeof setInterval> | null = null;
  private stopped = true;
  private everOpened = false;
  private joins = new Map<string, OutFrame>();
  private opts: RealtimeOptions | null = null;
  /** Bumped by start/stop: a connect that awaited (ticket, refresh) across a stop/start gives up. */
  private generation = 0;

  start(opts: RealtimeOptions) {
    this.opts = opts;
    if (!this.stopped) return;
    this.stopped = false;
    this.generation++;
    this.everOpened = false;
    this.attempt = 0;
    void this.connect();
  }

  stop() {
    this.stopped = true;
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    if (this.statusTimer) clearInterval(this.statusTimer);
    this.timer = null;
    this.statusTimer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000, "logout");
    this.joins.clear();
    reportSocket(true);
  }

  /** Sends a frame now when open; does nothing otherwise. */
  send(frame: OutFrame) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  /** Sends a join frame and repeats it after every reconnect until `leave` is called with its pair. */
  join(frame: OutFrame) {
    this.joins.set(key(frame), frame);
    this.send(frame);
  }

  /** Forgets a join (the frame given is the join frame) and sends the leave frame, if any. */
  leave(joinFrame: OutFrame, leaveFrame?: OutFrame) {
    this.joins.delete(key(joinFrame));
    if (leaveFrame) this.send(leaveFrame);
  }

  private async connect() {
    if (this.stopped) return;
    const generation = this.generation;
    const stale = () => this.stopped || generation !== this.generation;
    let token = getToken();
    if (token && tokenExpiresSoon(token)) {
      const fresh = await refreshSession();
      if (!fresh) {
        clearSession();
        return;
      }
      token = fresh.token;
    }
    if (!token || stale()) return;
    // A single-use 60 s ticket, not the access token, goes in the URL (URLs are logged by CloudFront/API Gateway).
    let ticket: string;
    try {
      ticket = (await apiRequest<{ ticket: string }>("POST", "/auth/ws-ticket")).ticket;
    } catch {
      if (stale() || !getToken()) return; // stopped, or logged out meanwhile (a 401 cleared the session)
      this.timer = setTimeout(() => void this.connect(), backoffDelay(this.attempt++));
      return;
    }
    if (stale()) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws?ticket=${encodeURIComponent(ticket)}`);
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      reportSocket(true);
      this.send({ action: "joinNotification" });
      this.send({ action: "visibility", visible: document.visibilityState === "visible" });
      for (const f of this.joins.values()) this.send(f);
      if (this.statusTimer) clearInterval(this.statusTimer);
      this.statusTimer = setInterval(() => this.send({ action: "userStatus" }), USER_STATUS_INTERVAL_MS);
      this.opts?.onOpen?.(reconnected);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws || typeof e.data !== "string") return;
      let frame: unknown;
      try {
        frame = JSON.parse(e.data);
      } catch {
        return;
      }
      if (frame && typeof frame === "object" && typeof (frame as InFrame).event === "string") this.opts?.onFrame(frame as InFrame);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.statusTimer) clearInterval(this.statusTimer);
      this.statusTimer = null;
      if (this.stopped) return;
      reportSocket(false);
      const delay = backoffDelay(this.attempt++);
      this.timer = setTimeout(() => void this.connect(), delay);
    };
    ws.onerror = () => {
      /* onclose follows and schedules the reconnect */
    };
  }
}

/** The tab's one realtime client. */
export const realtime = new RealtimeClient();

if (typeof document !== "undefined") {
  document.addEventListener("visibilitychange", () => realtime.send({ action: "visibility", visible: document.visibilityState === "visible" }));
}
