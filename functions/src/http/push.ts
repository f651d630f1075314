/**
 * Push notifications area. Thin: call the push service. Contract: `shared/src/push/contract.ts`; rules:
 * docs/product/push.md.
 */
import { pushPublicKey, subscribe, unsubscribe } from "@atende/shared/push/service";
import { areaHandler } from "./core/http.ts";

export const handler = areaHandler("push", {
  "GET /api/push/key": async () => pushPublicKey(),
  "POST /api/push/subscriptions": async (ctx) => subscribe(ctx.auth, ctx.body),
  "DELETE /api/push/subscriptions": async (ctx) => unsubscribe(ctx.auth, ctx.body),
});
