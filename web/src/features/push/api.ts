/**
 * This device's push notifications (docs/product/push.md#opting-in): the browser's permission and subscription, the
 * VAPID key from `GET /api/push/key`, and the device's registration on `POST|POST /api/push/subscriptions/remove`.
 * `usePushState()` says where this device stands: `unsupported` (no service worker, Push API or notifications),
 * `unavailable` (the server has no keys), `denied` (the browser's permission was refused), `off` or `on`.
 * Which user opted this device in is kept in the browser (`atende.push.<userId>` = the endpoint): the server drops a
 * user's devices at logout, and the next user of the same browser starts with notifications off.
 */
import { useCallback, useEffect, useState } from "react";
import i18next from "i18next";
import { call } from "../../api/operations.ts";
import { tokenVersionOf, useSession } from "../../api/session.ts";

export type PushState = "loading" | "unsupported" | "unavailable" | "denied" | "off" | "on";

const supported = () => typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** The base64url VAPID key as the bytes `pushManager.subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

const lang = () => (["pt", "en", "es"].includes(i18next.language?.slice(0, 2)) ? i18next.language.slice(0, 2) : "pt") as "pt" | "en" | "es";

async function register(sub: PushSubscription) {
  const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await call("POST /api/push/subscriptions", { body: { endpoint: json.endpoint, keys: json.keys, lang: lang() } });
}

/** Removes this device's subscription from the server and the browser (opt-out, logout). Never throws. */
export async function forgetThisDevice(): Promise<void> {
  if (!supported()) return;
  const reg = await navigator.serviceWorker.getRegistration().catch(() => undefined);
  const sub = await reg?.pushManager.getSubscription().catch(() => null);
  if (!sub) return;
  await call("POST /api/push/subscriptions/remove", { body: { endpoint: sub.endpoint } }).catch(() => undefined);
  await sub.unsubscribe().catch(() => false);
}

const markKey = (userId: number) => `atende.push.${userId}`;

/**
 * This device's push state, and `enable()` / `disable()`. On mount, and whenever the session's version moves (the user
 * changed their own password, which drops the devices subscribed under the old sessions), an existing subscription is
 * registered again (language, session).
 */
export function usePushState() {
  const session = useSession()!;
  const userId = session.user.id;
  const version = tokenVersionOf(session.token);
  const [state, setState] = useState<PushState>("loading");
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    if (!supported()) return setState("unsupported");
    const { publicKey } = await call("GET /api/push/key");
    if (!publicKey) return setState("unavailable");
    if (Notification.permission === "denied") return setState("denied");
    const reg = await navigator.serviceWorker.getRegistration();
    const sub = await reg?.pushManager.getSubscription();
    if (sub && Notification.permission === "granted" && localStorage.getItem(markKey(userId)) === sub.endpoint) {
      await register(sub);
      return setState("on");
    }
    setState("off");
  }, [userId]);

  // Also when the session version moves: a new session must register this device again.
  useEffect(() => {
    refresh().catch(() => setState("off"));
  }, [refresh, version]);

  const enable = useCallback(async () => {
    setError(null);
    try {
      const { publicKey } = await call("GET /api/push/key");
      if (!publicKey) return setState("unavailable");
      const permission = await Notification.requestPermission();
      if (permission !== "granted") return setState(permission === "denied" ? "denied" : "off");
      const reg = await navigator.serviceWorker.register("/service-worker.js");
      await navigator.serviceWorker.ready;
      const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
      await register(sub);
      localStorage.setItem(markKey(userId), sub.endpoint);
      setState("on");
    } catch (err) {
      setError((err as Error)?.message ?? String(err));
      setState("off");
    }
  }, [userId]);

  const disable = useCallback(async () => {
    setError(null);
    await forgetThisDevice();
    localStorage.removeItem(markKey(userId));
    setState("off");
  }, [userId]);

  return { state, error, enable, disable };
}
