/**
 * n8n and webhook integrations (docs/product/integrations.md#n8n-and-webhook): each customer message is POSTed to the
 * integration's URL as one JSON event (company, connection, contact, ticket, message; never the raw protocol message),
 * signed with the integration's secret (`./signature.ts`). The flow answers through the public send API.
 *
 * Delivery is durable: a due-time timer (`integrationDelivery`, one per message) is written BEFORE the first attempt,
 * so a process dying mid-way leaves it for the minute tick; success cancels it. A failed attempt (no answer, or not
 * 2xx, within 10 s) is retried by that timer after 1, 2, 5, 15, 30 and 60 minutes, each attempt signed anew with the
 * same event id (receivers deduplicate by it). After the last one the ticket is handed to people with a note.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { getCompany } from "../companies/service.ts";
import { log } from "../log.ts";
import type { ContactItem } from "../contacts/schema.ts";
import type { MessageItem } from "../messages/schema.ts";
import { presignMediaGet } from "../storage/media.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { cancelTimer, registerTimerKind, scheduleTimer, type TimerResult } from "../timers/index.ts";
import type { WhatsappItem } from "../whatsapp/schema.ts";
import { handOverTicket } from "./handover.ts";
import { openWebhookSecret } from "./credentials.ts";
import { getIntegration } from "./repository.ts";
import type { IntegrationItem } from "./schema.ts";
import { signedHeaders } from "./signature.ts";

/** Timer kind of a pending delivery (ref = `<ticketId>-<messageId>`; data {@link DeliveryData}). */
export const INTEGRATION_DELIVERY = "integrationDelivery";
/** Minutes before each retry (the first attempt is at once). */
export const DELIVERY_BACKOFF_MINUTES = [1, 2, 5, 15, 30, 60] as const;
const TIMEOUT_MS = 10_000;
/** Presigned media links in an event last this long (seconds). */
const MEDIA_LINK_SECONDS = 3600;

/** The event a flow receives (`type: "message.received"`), documented in docs/product/integrations.md. */
export interface FlowEvent {
  id: string;
  type: "message.received";
  createdAt: string;
  company: { id: number; name: string };
  connection: { id: number; name: string; number: string };
  integration: { id: number; name: string; type: string };
  contact: { id: number; name: string; number: string; email: string };
  ticket: { id: number; uuid: string; status: string; queueId: number | null; userId: number | null };
  message: { id: string; body: string; mediaType: string; mediaName: string | null; mediaMime: string | null; mediaUrl: string | null; createdAt: string };
}

const DeliveryData = z.object({ integrationId: z.number().int(), ticketId: z.number().int(), body: z.string(), attempt: z.number().int().min(1) });
type DeliveryData = z.infer<typeof DeliveryData>;

/** Builds the event of one customer message (pure but for the company's name and the media link). */
export async function flowEvent(
  integration: IntegrationItem,
  parts: { wa: WhatsappItem; contact: ContactItem; ticket: TicketItem; message: MessageItem },
  now = new Date(),
): Promise<FlowEvent> {
  const { wa, contact, ticket, message } = parts;
  const company = await getCompany(integration.companyId);
  return {
    id: randomUUID(),
    type: "message.received",
    createdAt: now.toISOString(),
    company: { id: integration.companyId, name: company?.name ?? "" },
    connection: { id: wa.id, name: wa.name, number: wa.number },
    integration: { id: integration.id, name: integration.name, type: integration.type },
    contact: { id: contact.id, name: contact.name, number: contact.number, email: contact.email },
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId, userId: ticket.userId },
    message: {
      id: message.id,
      body: message.body,
      mediaType: message.mediaType,
      mediaName: message.mediaName,
      mediaMime: message.mediaMime,
      mediaUrl: message.mediaKey ? await presignMediaGet(integration.companyId, message.mediaKey, MEDIA_LINK_SECONDS, message.mediaName ?? undefined, message.mediaMime) : null,
      createdAt: message.createdAt,
    },
  };
}

/** One POST of `body` to the integration's URL, signed now. Throws on a network error, a timeout or a non-2xx answer. */
export async function postSigned(integration: IntegrationItem, body: string, attempt: number): Promise<void> {
  const res = await fetch(integration.urlN8N, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": "Atende-Integrations/1", "X-Atende-Attempt": String(attempt), ...signedHeaders(await openWebhookSecret(integration), body) },
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await res.body?.cancel().catch(() => undefined);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
}

/**
 * Delivers the event of one customer message: writes the retry timer, tries once, cancels the timer on success.
 * Never throws for the flow's failures (the timer retries); DynamoDB errors propagate.
 */
export async function deliverToFlow(integration: IntegrationItem, event: FlowEvent, now = new Date()): Promise<boolean> {
  const body = JSON.stringify(event);
  const ref = `${event.ticket.id}-${event.message.id}`;
  const data: DeliveryData = { integrationId: integration.id, ticketId: event.ticket.id, body, attempt: 1 };
  await scheduleTimer(integration.companyId, INTEGRATION_DELIVERY, ref, now.getTime() + DELIVERY_BACKOFF_MINUTES[0] * 60_000, { ...data, attempt: 2 });
  try {
    await postSigned(integration, body, 1);
  } catch (err) {
    log("warn", "integration delivery failed; retried by its timer", { companyId: integration.companyId, integrationId: integration.id, ticketId: event.ticket.id, err });
    return false;
  }
  await cancelTimer(integration.companyId, INTEGRATION_DELIVERY, ref);
  return true;
}

/** The retry timer: one more attempt; on failure the next backoff step, after the last one the hand-over. */
export async function fireDelivery(companyId: number, raw: Record<string, unknown>, now: Date): Promise<TimerResult> {
  const parsed = DeliveryData.safeParse(raw);
  if (!parsed.success) {
    log("error", "integration delivery timer with bad data (dropped)", { companyId });
    return undefined;
  }
  const d = parsed.data;
  const integration = await getIntegration(companyId, d.integrationId);
  if (!integration || (integration.type !== "n8n" && integration.type !== "webhook")) return undefined;
  try {
    await postSigned(integration, d.body, d.attempt);
    return undefined;
  } catch (err) {
    const wait = DELIVERY_BACKOFF_MINUTES[d.attempt - 1];
    if (wait === undefined) {
      log("warn", "integration delivery given up", { companyId, integrationId: integration.id, ticketId: d.ticketId, attempts: d.attempt, err });
      await handOverTicket(companyId, d.ticketId, integration, `o fluxo não recebeu a mensagem após ${d.attempt} tentativas (${String((err as Error)?.message ?? err)})`);
      return undefined;
    }
    return { rescheduleAt: now.getTime() + wait * 60_000, data: { ...d, attempt: d.attempt + 1 } };
  }
}

registerTimerKind(INTEGRATION_DELIVERY, (t, now) => fireDelivery(t.companyId, t.data, now));
