/**
 * Sending scheduled messages (docs/product/schedules.md#sending), in two steps:
 *
 * 1. {@link sweepDueSchedules}, run by the minute tick: one Query per due-index shard (`SCHEDDUE#<shard>`, items due
 *    `<= now`; never a scan of companies), each entry claimed with a conditional update (PENDENTE → AGENDADA, entry moved
 *    to `now + claimHoldMs(claims)`: a second tick loses the claim; a send that never finished is claimed again then,
 *    each claim holding twice as long as the one before), then put on the dispatch queue ten per call. A schedule whose
 *    time passed while nothing ran is found by the first tick back.
 * 2. {@link sendDueSchedule}, run by the dispatch queue's consumer for each message: the schedule's one WhatsApp id is
 *    reserved on it (conditional, no read before: a failed reservation is read to see why), the message is stored and sent through the outbound path (`sendOutbound`) on the
 *    contact's open ticket of the connection, or a ticket opened for the scheduler, and the schedule moves AGENDADA →
 *    ENVIADA (or ERRO with the reason) on the condition that it still holds that id. A redelivered or re-driven message
 *    finds the schedule sent, or finds its message already stored under the reserved id, and sends nothing again. The
 *    contact and connection the send read go to `sendOutbound`, which does not read them again.
 */
import { randomUUID } from "node:crypto";
import { getConfig } from "../config.ts";
import { batchGetContactsOf, getContactItem } from "../contacts/repository.ts";
import type { ContactItem } from "../contacts/schema.ts";
import { dueShardsToRead } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import "../tickets/events.ts";
import { log } from "../log.ts";
import { copyIntoMessage, storedMediaOf } from "../media/attachments.ts";
import { getMessageById } from "../messages/repository.ts";
import { newOutboundId, sendOutbound } from "../messages/service.ts";
import { enqueueBatch } from "../sqs/enqueue.ts";
import { createTicketItem, getActiveTicketId, getTicketItem, isActiveStatus } from "../tickets/repository.ts";
import { TicketItem } from "../tickets/schema.ts";
import { contactSummaryOf, whatsappSummaryOf } from "../tickets/summaries.ts";
import { nextId } from "../db/counters.ts";
import { getUser } from "../users/repository.ts";
import { getDefaultWhatsapp } from "../whatsapp/service.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import type { WhatsappItem } from "../whatsapp/schema.ts";
import "./errors.ts";
import "./events.ts";
import { claimDueSchedule, dueSchedulePages, finishSchedule, getSchedule, reserveMessageId, type DueSchedule } from "./repository.ts";
import type { ScheduleDispatchMessage, ScheduleItem } from "./schema.ts";
import { scheduleView, viewOf } from "./service.ts";

/** How long a tick's first claim of a due schedule leaves it to its send before a tick claims it again. */
export const SCHEDULE_CLAIM_MS = 5 * 60_000;
/** The longest a claim holds a schedule (a send lost for good is retried at least this often). */
export const SCHEDULE_CLAIM_MAX_MS = 6 * 3600_000;

/**
 * How long the claim of a schedule already claimed `claims` times holds it: {@link SCHEDULE_CLAIM_MS}, doubled by each
 * claim before (5, 10, 20... min, at most {@link SCHEDULE_CLAIM_MAX_MS}). A dispatch backlog longer than a claim gets
 * the unsent schedules queued again; doubling keeps those extra records to about log2(backlog / 5 min) per schedule.
 */
export function claimHoldMs(claims: number): number {
  return Math.min(SCHEDULE_CLAIM_MS * 2 ** Math.min(claims, 30), SCHEDULE_CLAIM_MAX_MS);
}
/** Claims running at once per shard (each one conditional UpdateItem). */
const CLAIM_CONCURRENCY = 16;

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/**
 * The minute tick's part: claims every schedule due at `now` or before (all shards at once) and puts one message
 * per claimed schedule on the dispatch queue. Returns the counts (`claimed`, `lost` to another claimer, `failed`).
 * @throws Error when `DISPATCH_QUEUE_URL` is not set and something is due.
 */
export async function sweepDueSchedules(now: Date = new Date()): Promise<{ claimed: number; lost: number; failed: number }> {
  const counts = { claimed: 0, lost: 0, failed: 0 };
  const at = now.toISOString();
  // The calendar's AGENDADA frames (best effort: realtime only) go out beside the claims, never holding a shard's next
  // page: what is due reaches the dispatch queue as fast as it is claimed.
  const frames: Promise<void>[] = [];
  await Promise.all(
    Array.from({ length: dueShardsToRead("schedules") }, async (_, shard) => {
      for await (const page of dueSchedulePages(shard, at)) {
        const claimed: ScheduleItem[] = [];
        await eachLimited(page, CLAIM_CONCURRENCY, async (due: DueSchedule) => {
          try {
            const claimUntil = new Date(now.getTime() + claimHoldMs(due.claims)).toISOString();
            // `updatedAt` is the real time (the claim's own clock may be the tick's): clients order updates by it.
            const item = await claimDueSchedule(due, claimUntil, new Date().toISOString());
            if (item) claimed.push(item);
            else counts.lost++;
          } catch (err) {
            counts.failed++;
            log("error", "schedule claim failed", { companyId: due.companyId, scheduleId: due.id, err });
          }
        });
        if (!claimed.length) continue;
        const url = getConfig().DISPATCH_QUEUE_URL;
        if (!url) throw new Error("DISPATCH_QUEUE_URL is not set");
        const refused = await enqueueBatch<ScheduleDispatchMessage>(
          url,
          claimed.map((s) => ({ kind: "schedule", companyId: s.companyId, scheduleId: s.id })),
        );
        // A refused message is claimed again when its claim runs out.
        if (refused.length) log("warn", "schedules not queued (claimed again later)", { count: refused.length });
        counts.claimed += claimed.length - refused.length;
        counts.failed += refused.length;
        // A claim again of one already AGENDADA changes nothing the calendar shows: only first claims are framed.
        const first = claimed.filter((s) => s.claims === 1);
        if (first.length) frames.push(agendadaFrames(first));
      }
    }),
  );
  await Promise.all(frames);
  return counts;
}

/**
 * The calendar's AGENDADA frames of claimed schedules: their contacts read in batches (one request per 100, not one
 * read per schedule), then one `schedule.updated` each. Best effort: a failure is logged, never thrown.
 */
async function agendadaFrames(claimed: ScheduleItem[]): Promise<void> {
  let contacts: Map<string, ContactItem>;
  try {
    contacts = await batchGetContactsOf(claimed.map((s) => ({ companyId: s.companyId, contactId: s.contactId })));
  } catch (err) {
    log("warn", "schedule frames not sent", { count: claimed.length, err });
    return;
  }
  await eachLimited(claimed, CLAIM_CONCURRENCY, async (s) => {
    try {
      await dispatch({ type: "schedule.updated", companyId: s.companyId, schedule: scheduleView(s, contacts.get(`${s.companyId}#${s.contactId}`)) });
    } catch (err) {
      log("warn", "schedule frame not sent", { companyId: s.companyId, scheduleId: s.id, err });
    }
  });
}

/** The connection that sends: the one of the conversation it was scheduled from when connected, else the company's. */
async function connectionFor(s: ScheduleItem): Promise<WhatsappItem> {
  if (s.ticketId != null) {
    const t = await getTicketItem(s.companyId, s.ticketId);
    const wa = t ? await getWhatsappItem(s.companyId, t.whatsappId) : null;
    if (wa?.status === "CONNECTED") return wa;
  }
  return getDefaultWhatsapp(s.companyId);
}

/**
 * The contact's open or pending ticket on the connection, else a new ticket opened for the scheduler (status open,
 * assigned to them, as an agent's new ticket; pending without a user when the scheduler is gone).
 */
async function ticketFor(s: ScheduleItem, wa: WhatsappItem, contact: ContactItem, scheduler: { id: number; name: string } | undefined): Promise<TicketItem> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const activeId = await getActiveTicketId(s.companyId, wa.id, s.contactId);
    if (activeId) {
      const t = await getTicketItem(s.companyId, activeId, true);
      if (t && isActiveStatus(t.status)) return t;
    }
    const now = new Date().toISOString();
    const open = !!scheduler && s.userId != null;
    const ticket = TicketItem.parse({
      id: await nextId(s.companyId, "ticket"),
      uuid: randomUUID(),
      companyId: s.companyId,
      status: open ? "open" : "pending",
      contactId: s.contactId,
      whatsappId: wa.id,
      queueId: null,
      userId: open ? s.userId : null,
      isGroup: contact.isGroup,
      version: 0,
      createdAt: now,
      updatedAt: now,
    });
    // Its row's summaries from what the send holds: the contact, the connection and the scheduler, not read again.
    const res = await createTicketItem(ticket, {
      contact: contactSummaryOf(contact),
      whatsapp: whatsappSummaryOf(wa),
      user: open && scheduler ? { id: scheduler.id, name: scheduler.name } : null,
    });
    if (res.created) {
      await dispatch({ type: "ticket.created", companyId: s.companyId, ticket });
      return ticket;
    }
  }
  throw new AppError("ERR_CREATING_TICKET");
}

/**
 * Ends the send (ENVIADA or ERRO) and tells the calendar (with `contact` when the send already read it); null when
 * another delivery ended it first.
 */
async function finish(
  s: ScheduleItem,
  outcome: { sent: true; ticketId: number; whatsappId: number } | { sent: false; error: string },
  now: Date,
  contact?: ContactItem,
) {
  const at = now.toISOString();
  const done = await finishSchedule(
    s,
    outcome.sent
      ? {
          status: "ENVIADA",
          sentAt: at,
          error: null,
          ticketId: outcome.ticketId,
          whatsappId: outcome.whatsappId,
          lateSeconds: Math.max(0, Math.round((now.getTime() - Date.parse(s.sendAt)) / 1000)),
          updatedAt: at,
        }
      : { status: "ERRO", sentAt: null, error: outcome.error, ticketId: s.ticketId, whatsappId: s.whatsappId, lateSeconds: null, updatedAt: at },
  );
  if (done) await dispatch({ type: "schedule.updated", companyId: done.companyId, schedule: contact ? scheduleView(done, contact) : await viewOf(done) });
  return done;
}

export type SendOutcome = "sent" | "failed" | "skipped";

/**
 * Sends one due schedule (the dispatch queue's message): `skipped` when it is gone or not AGENDADA (sent, failed,
 * edited back to PENDENTE: only a tick's claim of a due schedule makes it AGENDADA); `failed` when it ended as ERRO (`ERR_NO_DEF_WAPP_FOUND` when no connection
 * is connected, `ERR_SENDING_WAPP_MSG`, `ERR_NO_CONTACT_FOUND`); `sent` once its message is stored and queued.
 * Throws on an unexpected error (the queue redelivers; the next delivery sends nothing twice).
 */
export async function sendDueSchedule(msg: ScheduleDispatchMessage, now: () => Date = () => new Date()): Promise<SendOutcome> {
  // The first delivery reserves the id without a read before; a reservation that fails is read to see why.
  let s: ScheduleItem | null | undefined = await reserveMessageId(msg.companyId, msg.scheduleId, await newOutboundId(), now().toISOString());
  if (!s) {
    s = await getSchedule(msg.companyId, msg.scheduleId);
    if (s?.status !== "AGENDADA" || !s.messageId) return "skipped";
    // Another delivery reserved the id: it may have stored the message and died before ending the schedule.
    const stored = await getMessageById(s.companyId, s.messageId);
    if (stored) return (await finish(s, { sent: true, ticketId: stored.ticketId, whatsappId: stored.whatsappId }, now())) ? "sent" : "skipped";
  }
  const messageId = s.messageId;
  if (!messageId) return "skipped";
  const contact = await getContactItem(s.companyId, s.contactId);
  if (!contact) return (await finish(s, { sent: false, error: "ERR_NO_CONTACT_FOUND" }, now())) ? "failed" : "skipped";
  let wa: WhatsappItem;
  try {
    wa = await connectionFor(s);
  } catch (err) {
    if (err instanceof AppError) return (await finish(s, { sent: false, error: err.code }, now(), contact)) ? "failed" : "skipped";
    throw err;
  }
  const user = s.userId != null ? await getUser(s.companyId, s.userId, { consistent: false }) : undefined;
  const ticket = await ticketFor(s, wa, contact, user);
  const media = storedMediaOf(s);
  const copy = media ? await copyIntoMessage(s.companyId, ticket.id, messageId, media) : undefined;
  try {
    // Like an agent's message: signed with the scheduler's name, variables rendered in the company's zone.
    await sendOutbound(s.companyId, { userId: user?.id ?? null, name: user?.name ?? "" }, ticket, {
      body: s.body,
      messageId,
      known: { contact, whatsapp: wa },
      signMessage: !!user,
      ...(copy ? { media: copy } : {}),
    });
  } catch (err) {
    // The message is stored (ack -1 with the reason) when the connection refused it: the schedule shows the reason.
    if (err instanceof AppError && err.code === "ERR_SENDING_WAPP_MSG") {
      return (await finish(s, { sent: false, error: err.code }, now(), contact)) ? "failed" : "skipped";
    }
    throw err;
  }
  return (await finish(s, { sent: true, ticketId: ticket.id, whatsappId: wa.id }, now(), contact)) ? "sent" : "skipped";
}
