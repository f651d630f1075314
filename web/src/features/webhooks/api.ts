/**
 * Company webhooks data (docs/product/webhooks.md):
 * - `useWebhooks()`: GET /api/webhooks → the company's webhooks (no secret);
 * - `webhookCalls` (POST, PUT /{id}, DELETE /{id}) run by `useWebhookMutations()`; create and
 *   `regenerateSecret(id)` (POST /{id}/secret) answer the secret once, kept out of the cache;
 * - `sendTestEvent(id)`: POST /{id}/test; `useDeliveries(id)`: GET /{id}/deliveries?cursor, pages newest first.
 * Webhooks send no realtime frame: another admin's change shows on the next refetch (the page refetches on focus).
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { arrayCache, useCrudMutations, type CrudCalls } from "../../ui/kit/crud.ts";

export type Webhook = ResponseOf<"GET /api/webhooks/{id}">;
export type WebhookForm = BodyOf<"POST /api/webhooks">;
export type Delivery = ResponseOf<"POST /api/webhooks/{id}/test">;

export const webhooksCache = arrayCache<Webhook>({ key: ["webhooks", "list"], sort: (a, b) => a.id - b.id });

export const useWebhooks = () => useQuery({ queryKey: webhooksCache.key, queryFn: () => call("GET /api/webhooks") });

/** The answer without its secret (what the cache keeps). */
const withoutSecret = ({ secret: _secret, ...view }: ResponseOf<"POST /api/webhooks">): Webhook => view;

/** The secret of the last create or regenerate, to show once (set by the calls below, read by the page). */
export const shownSecret: { current: { webhook: Webhook; secret: string } | null } = { current: null };

export const webhookCalls: CrudCalls<Webhook, WebhookForm> = {
  create: async (form) => {
    const made = await call("POST /api/webhooks", { body: form });
    shownSecret.current = { webhook: withoutSecret(made), secret: made.secret };
    return withoutSecret(made);
  },
  update: (id, form) => call("PUT /api/webhooks/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/webhooks/{id}", { params: { id } }),
};

export const useWebhookMutations = () => useCrudMutations(webhookCalls, webhooksCache);

/** A new secret for the webhook: answered once. */
export async function regenerateSecret(id: number): Promise<{ webhook: Webhook; secret: string }> {
  const renewed = await call("POST /api/webhooks/{id}/secret", { params: { id } });
  return { webhook: withoutSecret(renewed), secret: renewed.secret };
}

/** Queues a test event to the webhook; its delivery shows in the log. */
export const sendTestEvent = (id: number) => call("POST /api/webhooks/{id}/test", { params: { id } });

export const deliveriesKey = (id: number) => ["webhooks", id, "deliveries"] as const;

/** The webhook's delivery log, 20 per page, newest first; refetched every 5 s while open (attempts happen meanwhile). */
export function useDeliveries(id: number, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: deliveriesKey(id),
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call("GET /api/webhooks/{id}/deliveries", { params: { id }, query: pageParam ? { cursor: pageParam } : {} }),
    getNextPageParam: (last) => last.cursor,
    refetchInterval: enabled ? 5000 : false,
  });
}
