/**
 * Deleting a company (docs/product/companies.md#deleting-a-company): `DELETE /api/companies/{id}` marks the company
 * `deleting` (every request of its users is refused from then on), asks the session runner to log each of its
 * connections out, and starts the `deleteCompany` background job in the super user's company. The job removes the
 * company's data in resumable phases, each step reading one page of ONE partition or index partition by its key
 * (never a table scan) and deleting what it read, so a step that dies is simply read again:
 *
 * tickets by status (each ticket's partition: messages, notes, tag edges, kanban entries, cycles, ratings; with its
 * message references, WhatsApp aliases, search words and grams, uuid alias, open-ticket marker, outbound-pending items
 * and timers) → contacts (partition, phone/JID markers, search grams) → internal chats (and their messages) →
 * connections (Baileys credentials, API token lookup, parked messages) → sockets → users (email markers, presence
 * timers) → the rest of the company partition (queues, settings, tags, schedules, counters…) → daily counters and
 * search progress → media objects → the company item itself.
 */
import { z } from "zod";
import { keys } from "../db/keys.ts";
import { registerJobKind, type JobStep } from "../jobs/service.ts";
import { setSessionConnected } from "../dashboard/repository.ts";
import { companySockets, removeSocket } from "../realtime/publish.ts";
import { PRESENCE_CHECK } from "../realtime/presence.ts";
import { contactIndexItems, ticketGramItems } from "../search/writes.ts";
import { deleteMediaPage } from "../storage/media.ts";
import { EXPIRES_TICKET, RATING_WAIT, TIME_TO_TRANSFER } from "../timers/kinds.ts";
import { deleteCompanyRecord, deleteKeys, purgePage, type PurgeItem } from "./repository.ts";

/** The job's params: which company goes. */
export const DeleteCompanyParams = z.object({ companyId: z.number().int().positive() });

const PHASES = ["tickets:open", "tickets:pending", "tickets:closed", "contacts", "chats", "connections", "sockets", "users", "partition", "stats", "media", "company"] as const;
type Phase = (typeof PHASES)[number];
const Cursor = z.object({ phase: z.number().int().min(0) });

/** Items read per page inside one ticket's, contact's or chat's partition. */
const INNER_PAGE = 200;

const keyOf = (it: PurgeItem) => ({ PK: it.PK, SK: it.SK });
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** Deletes every item of partition `pk` whose sort key is after `after` (all of them when omitted), page by page. */
async function emptyPartition(pk: string, satellites: (it: PurgeItem) => { PK: string; SK: string }[] = () => []): Promise<void> {
  for (;;) {
    const items = await purgePage(pk, INNER_PAGE);
    if (!items.length) return;
    await deleteKeys(items.flatMap((it) => [...satellites(it), keyOf(it)]));
  }
}

/** One ticket and everything hanging from it; the ticket item (its index entry, the job's resume point) goes last. */
async function purgeTicket(cid: number, t: PurgeItem): Promise<void> {
  const tid = Number(t.id);
  const ticketKey = keys.ticket(cid, tid);
  await emptyPartitionExcept(keys.ticketPartition(cid, tid), ticketKey.SK, (it) => {
    const out: { PK: string; SK: string }[] = [];
    const id = str(it.id);
    if (it.SK.startsWith(keys.messagePrefix) && id) {
      out.push(keys.messageRef(cid, id, tid), keys.outboundPending(cid, tid, id));
      if (typeof it.whatsappId === "number" && str(it.remoteJid)) {
        out.push(keys.messageAlias(cid, id, it.whatsappId, str(it.remoteJid)!), keys.waMessage(cid, it.whatsappId, str(it.remoteJid)!, id));
      }
      for (const w of (str(it._sw) ?? "").split(" ").filter(Boolean)) out.push(keys.searchWord(cid, w, tid));
    }
    if (it.SK.startsWith(keys.prefix.note) && it.id != null) out.push(keys.noteRef(cid, Number(it.id)));
    return out;
  });
  const contact = t.sumContact as { id: number; name: string; number?: string; email?: string } | undefined;
  const extra = [
    ...ticketGramItems(cid, tid, contact && typeof contact.id === "number" ? contact : null).map((g) => ({ PK: String(g.PK), SK: String(g.SK) })),
    ...(str(t.uuid) ? [keys.ticketUuid(cid, str(t.uuid)!)] : []),
    ...(t.whatsappId != null && t.contactId != null ? [keys.activeTicket(cid, Number(t.whatsappId), Number(t.contactId))] : []),
    ...[EXPIRES_TICKET, TIME_TO_TRANSFER, RATING_WAIT].map((k) => keys.timer(cid, k, tid)),
  ];
  await deleteKeys(extra);
  await deleteKeys([ticketKey]);
}

/** Like {@link emptyPartition}, keeping the item at sort key `keep` (read again at each page, so skipped). */
async function emptyPartitionExcept(pk: string, keep: string, satellites: (it: PurgeItem) => { PK: string; SK: string }[]): Promise<void> {
  for (;;) {
    const items = (await purgePage(pk, INNER_PAGE + 1)).filter((it) => it.SK !== keep);
    if (!items.length) return;
    await deleteKeys(items.flatMap((it) => [...satellites(it), keyOf(it)]));
  }
}

async function purgeContact(cid: number, c: PurgeItem): Promise<void> {
  const id = Number(c.id);
  const markers = [
    ...(str(c.number) ? [keys.contactPhone(cid, str(c.number)!)] : []),
    ...(Array.isArray(c.jids) ? c.jids.filter((j): j is string => typeof j === "string").map((j) => keys.contactJid(cid, j)) : []),
  ];
  const grams = contactIndexItems({ id, companyId: cid, name: str(c.name) ?? "", number: str(c.number), email: str(c.email) }).map((g) => ({ PK: String(g.PK), SK: String(g.SK) }));
  await deleteKeys([...markers, ...grams]);
  await emptyPartition(c.PK); // the contact item and anything else in its partition
}

/** One step of phase `phase`: handles at most `limit` items; returns how many (0 = the phase is over). */
async function purgeStep(cid: number, phase: Phase, limit: number): Promise<number> {
  const company = keys.companyPartition(cid);
  if (phase.startsWith("tickets:")) {
    const tickets = await purgePage(keys.ticketStatusPK(cid, phase.slice("tickets:".length)), limit, { index: "GSI1" });
    for (const t of tickets) await purgeTicket(cid, t);
    return tickets.length;
  }
  if (phase === "contacts") {
    const contacts = await purgePage(keys.contactsIndexPK(cid), limit, { index: "GSI1" });
    for (const c of contacts) await purgeContact(cid, c);
    return contacts.length;
  }
  if (phase === "chats") {
    const chats = await purgePage(company, limit, { skPrefix: keys.chatPrefix });
    for (const c of chats) {
      await emptyPartition(keys.chatMessagesPK(cid, Number(c.id)));
      await deleteKeys([keyOf(c)]);
    }
    return chats.length;
  }
  if (phase === "connections") {
    const conns = await purgePage(company, limit, { skPrefix: keys.prefix.whatsapp });
    for (const w of conns) {
      const wid = Number(w.id);
      await emptyPartition(keys.waPartition(wid));
      await emptyPartition(keys.inboundParked(cid, wid, "").PK);
      await setSessionConnected(cid, wid, false);
      await deleteKeys([...(str(w.tokenHash) ? [keys.whatsappToken(str(w.tokenHash)!)] : []), keyOf(w)]);
    }
    return conns.length;
  }
  if (phase === "sockets") {
    const sockets = (await companySockets(cid, { fresh: true })).slice(0, limit);
    for (const s of sockets) {
      await deleteKeys((s.rooms ?? []).map((room) => keys.wsRoomMember(cid, room, s.connectionId)));
      await removeSocket(cid, s.connectionId);
    }
    return sockets.length;
  }
  if (phase === "users") {
    const users = await purgePage(company, limit, { skPrefix: keys.prefix.user });
    for (const u of users) await deleteKeys([...(str(u.email) ? [keys.email(str(u.email)!)] : []), keys.timer(cid, PRESENCE_CHECK, Number(u.id)), keyOf(u)]);
    return users.length;
  }
  if (phase === "partition") {
    const keep = keys.company(cid).SK;
    const items = (await purgePage(company, limit + 1)).filter((it) => it.SK !== keep);
    await deleteKeys(items.map(keyOf));
    return items.length;
  }
  if (phase === "stats") {
    const items = await purgePage(keys.statsPK(cid), limit);
    await deleteKeys([...items.map(keyOf), keys.searchBackfill(cid)]);
    return items.length;
  }
  if (phase === "media") return deleteMediaPage(keys.companyMediaPrefix(cid), Math.max(limit, 100));
  await deleteCompanyRecord(cid);
  return 0;
}

/**
 * The `deleteCompany` job's step: runs the current phase until `limit` items were handled or it is over; moves to the
 * next phase when a step finds nothing. `total` stays null (nobody counted the company's items beforehand).
 */
export const deleteCompanyStep: JobStep = async (job, limit) => {
  const { companyId } = DeleteCompanyParams.parse(job.params);
  let { phase } = job.cursor ? Cursor.parse(JSON.parse(job.cursor)) : { phase: 0 };
  const handled = await purgeStep(companyId, PHASES[phase], limit);
  if (handled === 0) phase += 1;
  const finished = phase >= PHASES.length;
  return { handled, cursor: finished ? null : JSON.stringify({ phase }), finished };
};

registerJobKind("deleteCompany", deleteCompanyStep);
