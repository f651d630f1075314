/**
 * Push notification routes (docs/product/push.md#opting-in): every signed-in user, for their own devices only (the
 * user and company come from the token). The public VAPID key is what the browser subscribes with.
 */
import { defineRoutes } from "../contract.ts";
import { PushKey, PushSubscriptionView, PushUnsubscribed, SubscribeBody, UnsubscribeBody } from "./schema.ts";

export const pushRoutes = defineRoutes("push", {
  "GET /api/push/key": { auth: "user", response: PushKey },
  /** Stores (or refreshes) the caller's device. */
  "POST /api/push/subscriptions": { auth: "user", body: SubscribeBody, response: PushSubscriptionView },
  /** Removes the caller's device (opt-out, logout). */
  "DELETE /api/push/subscriptions": { auth: "user", body: UnsubscribeBody, response: PushUnsubscribed },
});
