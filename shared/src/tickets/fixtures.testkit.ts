/**
 * Test kit (used only by tests): writes queues, connections and settings straight to the table, and builds tickets
 * through the real services, so ticket/message/contact tests start from a known company state.
 */
import { forgetVisibility } from "../access/visibility.ts";
import { clearReadCache } from "../ingest/read-cache.ts";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { nowIso } from "../common.ts";
import { ddb, tableName } from "../db/client.ts";
import { nextId } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { findOrCreateContactByIdentity } from "../contacts/service.ts";
import type { ContactItem } from "../contacts/schema.ts";
import { QueueItem } from "../queues/schema.ts";
import { WhatsappItem } from "../whatsapp/schema.ts";
import { writeTicketTransition } from "./repository.ts";
import { findOrCreateTicket } from "./service.ts";
import type { TicketItem } from "./schema.ts";

/** Writes a queue item. */
export async function makeQueue(companyId: number, opts: { name?: string; color?: string } = {}): Promise<QueueItem> {
  const id = await nextId(companyId, "queue");
  const now = nowIso();
  const q = QueueItem.parse({ id, companyId, name: opts.name ?? `Fila ${id}`, color: opts.color ?? `#00${id}`, createdAt: now, updatedAt: now });
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.queue(companyId, id), _type: "queue", ...q } }));
  return q;
}

/** Writes a connection item (default status CONNECTED, default connection). */
export async function makeWhatsapp(
  companyId: number,
  opts: { name?: string; status?: WhatsappItem["status"]; isDefault?: boolean; number?: string; complationMessage?: string; queueIds?: number[] } = {},
): Promise<WhatsappItem> {
  const id = await nextId(companyId, "whatsapp");
  const now = nowIso();
  const w = WhatsappItem.parse({
    id,
    companyId,
    name: opts.name ?? `Conexão ${id}`,
    status: opts.status ?? "CONNECTED",
    isDefault: opts.isDefault ?? true,
    number: opts.number ?? "5511900000000",
    complationMessage: opts.complationMessage ?? "",
    queueIds: opts.queueIds ?? [],
    createdAt: now,
    updatedAt: now,
  });
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.whatsapp(companyId, id), _type: "whatsapp", ...w } }));
  return w;
}

/** Writes a company setting (`SET#<key>`). */
export async function setSetting(companyId: number, key: string, value: string): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.setting(companyId, key), _type: "setting", key, value, companyId, updatedAt: nowIso() } }));
  // Written behind the settings service's back (no `setting.updated`): drop what this process cached of them.
  forgetVisibility(companyId);
  clearReadCache();
}

let phoneSeq = 0;
/** A contact created through the ingest path (phone JID + number). */
export async function makeContact(companyId: number, name = "Cliente", number?: string): Promise<ContactItem> {
  const digits = number ?? `55119${String(Date.now() % 100000).padStart(5, "0")}${String(++phoneSeq).padStart(3, "0")}`;
  return findOrCreateContactByIdentity(companyId, { jids: [`${digits}@s.whatsapp.net`], number: digits, name, isGroup: false });
}

/** A ticket in the given state (created pending by the ingest path, then moved with a real transition). */
export async function makeTicket(
  companyId: number,
  opts: { contact?: ContactItem; whatsappId: number; status?: TicketItem["status"]; queueId?: number | null; userId?: number | null; isGroup?: boolean },
): Promise<TicketItem> {
  const contact = opts.contact ?? (await makeContact(companyId));
  const { ticket } = await findOrCreateTicket(companyId, { contactId: contact.id, whatsappId: opts.whatsappId, isGroup: !!opts.isGroup, queueId: opts.queueId ?? null });
  const status = opts.status ?? "pending";
  if (status === "pending" && (opts.userId ?? null) === null) return ticket;
  return writeTicketTransition(ticket, { status, userId: opts.userId ?? null, updatedAt: nowIso() });
}
