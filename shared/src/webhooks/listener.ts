/**
 * The webhooks listener (durable, docs/product/webhooks.md#delivery): every domain event that is a webhook event
 * (`./payload.ts`) becomes one delivery per enabled webhook of the company subscribed to its type, queued for its
 * first attempt (`./delivery.ts`). Durable: the fact's own transaction writes its pending run when the event reports
 * one (`events/durable.ts`), so a process dying after the commit loses nothing; the minute tick runs it again, and the
 * deliveries it writes again are the same items (their keys come from the event).
 *
 * Which companies have webhooks is kept per process for {@link WEBHOOKS_CACHE_MS}: a company known to have none (or
 * none for the event's types) carries no pending run at all, so a company without webhooks pays nothing on its hot
 * paths. The price: a webhook saved in another process receives events from at most that long after it was saved.
 */
import type { DomainEvent, Listener } from "../events/registry.ts";
import { queueDelivery } from "./delivery.ts";
import { payloadOf, webhookEventsOf } from "./payload.ts";
import { listWebhooks } from "./repository.ts";
import type { WebhookItem } from "./schema.ts";

/** How long a process trusts what it read of a company's webhooks (ms). */
export const WEBHOOKS_CACHE_MS = 30_000;
const known = new Map<number, { hooks: WebhookItem[]; until: number }>();

/** Forgets what this process read of the company's webhooks (after a change to them). */
export function forgetCompanyWebhooks(companyId: number): void {
  known.delete(companyId);
}

async function enabledHooks(companyId: number, fresh: boolean): Promise<WebhookItem[]> {
  const hit = known.get(companyId);
  if (!fresh && hit && hit.until > Date.now()) return hit.hooks;
  const hooks = (await listWebhooks(companyId)).filter((h) => h.enabled);
  if (known.size >= 10_000) known.delete(known.keys().next().value!);
  known.set(companyId, { hooks, until: Date.now() + WEBHOOKS_CACHE_MS });
  return hooks;
}

const companyOf = (event: DomainEvent) => (event as { companyId?: unknown }).companyId;

export const webhooksListener: Listener = {
  name: "webhooks",
  durable: true,
  wants(event) {
    const companyId = companyOf(event);
    if (typeof companyId !== "number") return false;
    const types = webhookEventsOf(event).map((e) => e.type);
    if (!types.length) return false;
    const hit = known.get(companyId);
    // Unknown company (or stale knowledge): keep a run, the handler reads its webhooks.
    return !hit || hit.until <= Date.now() || hit.hooks.some((h) => h.events.some((t) => types.includes(t)));
  },
  async handle(event, run) {
    const companyId = companyOf(event);
    const events = webhookEventsOf(event);
    if (typeof companyId !== "number" || !events.length) return;
    const hooks = await enabledHooks(companyId, !!run?.redriven);
    for (const e of events) {
      const targets = hooks.filter((h) => h.events.includes(e.type));
      if (!targets.length) continue;
      const body = JSON.stringify(await payloadOf(companyId, e));
      for (const hook of targets) await queueDelivery(hook, e, body);
    }
  },
};
