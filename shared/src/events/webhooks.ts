/**
 * The webhook listener slot: delivers domain events to a company's webhooks. Company webhooks arrive with
 * the integrations work (the queue integrations' webhooks); until then the directory has none, so no
 * request is made. The port is real: give {@link setWebhookPort} a directory and a sender and every event reaches them.
 */
import { log } from "../log.ts";
import type { DomainEvent, Listener } from "./registry.ts";

/** One company webhook: which event types it wants (`*` for all) and where to POST them. */
export interface CompanyWebhook {
  id: number;
  url: string;
  events: string[];
}

/** Where webhooks come from and how one delivery is made. */
export interface WebhookPort {
  /** The company's enabled webhooks. */
  list(companyId: number): Promise<CompanyWebhook[]>;
  /** POSTs the event as JSON; throws on failure (the integrations work adds its retry queue). */
  deliver(hook: CompanyWebhook, event: DomainEvent): Promise<void>;
}

/** Today: no company has webhooks (the integrations feature stores them). */
const noWebhooks: WebhookPort = {
  list: async () => [],
  deliver: async () => undefined,
};

let port: WebhookPort = noWebhooks;

/** Installs the webhook directory and sender (the integrations feature; tests). */
export function setWebhookPort(p: WebhookPort | null): void {
  port = p ?? noWebhooks;
}

export const webhooksListener: Listener = {
  name: "webhooks",
  async handle(event) {
    const hooks = (await port.list(event.companyId)).filter((h) => h.events.includes("*") || h.events.includes(event.type));
    await Promise.all(
      hooks.map((h) =>
        port.deliver(h, event).catch((err) => log("warn", "webhook delivery failed", { companyId: event.companyId, webhookId: h.id, type: event.type, err })),
      ),
    );
  },
};
