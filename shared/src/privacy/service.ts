/**
 * A contact's personal data (docs/product/personal-data.md): an admin exports everything stored about one contact as
 * a zip, or erases it. Both run as background jobs (`jobs/`) and each leaves an audit entry.
 *
 * - Export (`exportContactData`): the contact, each of its tickets with its messages and notes, and the messages'
 *   files, zipped with fflate into `media/<cid>/exports/contacts/<contactId>/<jobId>.zip`; read back through a
 *   short-lived link.
 * - Erase (`eraseContactData`): each ticket of the contact, a few per step, with its messages' files and their
 *   WhatsApp alias items, then the contact itself with its WhatsApp aliases (JID and phone markers). The deletes are
 *   the same ones an admin's ticket and contact deletions dispatch, so lists, counters and search follow.
 */
import { randomUUID } from "node:crypto";
import { zipSync, strToU8 } from "fflate";
import { can, type Actor } from "../access/permissions.ts";
import { laterIso, nowIso } from "../common.ts";
import { getContactItem } from "../contacts/repository.ts";
import { deleteContact } from "../contacts/service.ts";
import { AppError } from "../errors.ts";
import { attachSummaries, summariesOf } from "../tickets/summaries.ts";
import { dispatch } from "../events/index.ts";
import "../tickets/events.ts";
import { registerJobKind, startJob } from "../jobs/service.ts";
import type { JobView } from "../jobs/schema.ts";
import { listMessages } from "../messages/repository.ts";
import type { MessageItem } from "../messages/schema.ts";
import { listTicketNotes } from "../notes/repository.ts";
import { deleteMedia, getMedia, headMedia, presignMediaGet, putMedia } from "../storage/media.ts";
import { deleteTicketItems, queryContactTickets } from "../tickets/repository.ts";
import { log } from "../log.ts";
import { contactGrams, messageWords } from "../search/tokens.ts";
import { deleteMessageAliases, deleteTicketSearchEntries, putAuditEntry } from "./repository.ts";
import { ContactJobParams, type AuditEntry } from "./schema.ts";

/** The caller of these operations: an admin of the company. */
type Caller = Actor & { companyId: number; userId: number };

/** How long the export's link works (s). */
export const EXPORT_LINK_TTL_SECONDS = 300;
/** Tickets erased per job step. */
const ERASE_TICKETS_PER_STEP = 5;
/** Most tickets a contact's export reads (the newest). */
const EXPORT_MAX_TICKETS = 1000;

const exportKey = (companyId: number, contactId: number, jobId: string) => `media/${companyId}/exports/contacts/${contactId}/${jobId}.zip`;

async function requireContact(caller: Caller, contactId: number) {
  if (!can(caller, "personal-data:manage")) throw new AppError("ERR_NO_PERMISSION");
  const contact = await getContactItem(caller.companyId, contactId, true);
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
  return contact;
}

async function audit(caller: Caller, action: AuditEntry["action"], contactId: number, jobId: string) {
  await putAuditEntry({ id: randomUUID(), companyId: caller.companyId, userId: caller.userId, action, contactId, jobId, at: nowIso() });
}

/** Starts the export of a contact's data (403 `ERR_NO_PERMISSION`, 404 `ERR_NO_CONTACT_FOUND`); audited. Returns the job. */
export async function startContactExport(caller: Caller, contactId: number): Promise<JobView> {
  await requireContact(caller, contactId);
  const job = await startJob(caller.companyId, caller.userId, "exportContactData", { contactId });
  await audit(caller, "contact.personalData.export", contactId, job.id);
  return job;
}

/** Starts the erasure of a contact's data (403 `ERR_NO_PERMISSION`, 404 `ERR_NO_CONTACT_FOUND`); audited. Returns the job. */
export async function startContactErase(caller: Caller, contactId: number): Promise<JobView> {
  await requireContact(caller, contactId);
  const job = await startJob(caller.companyId, caller.userId, "eraseContactData", { contactId });
  await audit(caller, "contact.personalData.erase", contactId, job.id);
  return job;
}

/** A link to a finished export of this contact (403 as above; 404 `ERR_NOT_FOUND` for another contact's or an unfinished one). */
export async function contactExportLink(caller: Caller, contactId: number, jobId: string): Promise<{ url: string; expiresInSeconds: number; fileName: string }> {
  if (!can(caller, "personal-data:manage")) throw new AppError("ERR_NO_PERMISSION");
  const key = exportKey(caller.companyId, contactId, jobId);
  if (!(await headMedia(key))) throw new AppError("ERR_NOT_FOUND");
  const fileName = `contato-${contactId}.zip`;
  return { url: await presignMediaGet(caller.companyId, key, EXPORT_LINK_TTL_SECONDS, fileName, "application/zip"), expiresInSeconds: EXPORT_LINK_TTL_SECONDS, fileName };
}

async function allMessages(companyId: number, ticketId: number): Promise<MessageItem[]> {
  const out: MessageItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await listMessages(companyId, ticketId, { limit: 100, cursor });
    out.push(...page.messages);
    cursor = page.nextCursor;
  } while (cursor);
  return out.reverse();
}

const json = (v: unknown) => strToU8(JSON.stringify(v, null, 2));
const safeName = (s: string) => s.replace(/[^\w.-]+/g, "_").slice(0, 120);

/** The export: one step builds the whole zip (its progress is the tickets read). */
registerJobKind("exportContactData", async (job) => {
  const cid = job.companyId;
  const { contactId } = ContactJobParams.parse(job.params);
  const contact = await getContactItem(cid, contactId, true);
  const files: Record<string, Uint8Array> = {};
  const tickets = contact ? await queryContactTickets(cid, contactId, EXPORT_MAX_TICKETS) : [];
  if (contact) files["contato.json"] = json(contact);
  for (const t of tickets) {
    const dir = `atendimentos/${t.id}`;
    const messages = await allMessages(cid, t.id);
    files[`${dir}/atendimento.json`] = json(t);
    files[`${dir}/mensagens.json`] = json(messages);
    files[`${dir}/notas.json`] = json(await listTicketNotes(cid, t.id));
    for (const m of messages) {
      if (!m.mediaKey) continue;
      try {
        files[`${dir}/arquivos/${safeName(m.id)}-${safeName(m.mediaName ?? "arquivo")}`] = await getMedia(m.mediaKey);
      } catch (err) {
        log("warn", "personal data export: a file is missing", { companyId: cid, ticketId: t.id, messageId: m.id, err });
      }
    }
  }
  await putMedia(exportKey(cid, contactId, job.id), zipSync(files, { level: 6 }), "application/zip");
  return { handled: tickets.length + 1, total: tickets.length + 1, cursor: null, finished: true };
});

/** The erasure: a few tickets per step (their files, aliases and partitions), then the contact with its aliases. */
registerJobKind("eraseContactData", async (job) => {
  const cid = job.companyId;
  const { contactId } = ContactJobParams.parse(job.params);
  const tickets = await queryContactTickets(cid, contactId, ERASE_TICKETS_PER_STEP);
  const contact = await getContactItem(cid, contactId, true);
  const grams = contact ? contactGrams(contact) : [];
  const total = job.total ?? (await queryContactTickets(cid, contactId, EXPORT_MAX_TICKETS)).length + 1;
  for (const read of tickets) {
    const messages = await allMessages(cid, read.id);
    for (const m of messages) if (m.mediaKey) await deleteMedia(m.mediaKey).catch((err) => log("warn", "personal data erase: a file was not deleted", { companyId: cid, messageId: m.id, err }));
    await deleteMessageAliases(messages);
    await deleteTicketSearchEntries(cid, read.id, [...new Set(messages.flatMap((m) => messageWords(m.body)))], grams);
    const t = attachSummaries({ ...read, updatedAt: laterIso(read.updatedAt) }, summariesOf(read));
    await deleteTicketItems(t);
    await dispatch({ type: "ticket.deleted", companyId: cid, ticket: t });
  }
  if (tickets.length) return { handled: tickets.length, total, cursor: null, finished: false };
  if (contact) {
    await deleteContact(cid, contactId).catch((err) => {
      if (!(err instanceof AppError && err.code === "ERR_NO_CONTACT_FOUND")) throw err;
    });
  }
  return { handled: 1, total, cursor: null, finished: true };
});
