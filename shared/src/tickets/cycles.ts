/**
 * Service cycles of a ticket (docs/product/dashboard.md#service-cycles): each cycle is queued, accepted by an
 * attendant, finished and maybe rated. The ticket item carries its current cycle (`queuedAt`, `acceptedAt`,
 * `acceptedBy`); a finished cycle is stored as its own item in the ticket's partition, in the transaction that closes
 * the ticket (`repository.ts` `cycleItemPut`). A reopened ticket starts a new cycle. Pure.
 *
 * Wait time = accepted − queued; handling time = finished (or the rating prompt, when one was sent: the customer's
 * time to answer is not the attendant's) − accepted. Seconds, never negative.
 */
import { z } from "zod";

type CycleFields = { queuedAt: string | null; acceptedAt: string | null; acceptedBy: number | null };
type Ticket = CycleFields & { status: string; userId: number | null; createdAt: string; updatedAt: string; ratingAt?: string | null };

/** Whole seconds from `from` to `to` (ISO), 0 when negative or either is missing. */
export const secondsBetween = (from: string | null | undefined, to: string | null | undefined) =>
  from && to ? Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000)) : 0;

/**
 * The current cycle's fields of `next` after the transition from `prev` (null: the ticket is created now):
 * created or reopened → a new cycle queued now (accepted now too when it is open); pending → open: accepted now by
 * its attendant; open → pending (returned to the queue): queued again, not accepted. Otherwise unchanged.
 */
export function cycleAfter(prev: Ticket | null, next: Ticket): CycleFields {
  const at = prev ? next.updatedAt : next.createdAt;
  const open = next.status === "open";
  if (!prev || (prev.status === "closed" && next.status !== "closed")) {
    return { queuedAt: at, acceptedAt: open ? at : null, acceptedBy: open ? next.userId : null };
  }
  const queuedAt = prev.queuedAt ?? prev.createdAt; // a ticket stored before cycles were kept: queued when created
  if (prev.status === "pending" && open) return { queuedAt, acceptedAt: at, acceptedBy: next.userId };
  if (prev.status === "open" && next.status === "pending") return { queuedAt: at, acceptedAt: null, acceptedBy: null };
  return { queuedAt, acceptedAt: prev.acceptedAt, acceptedBy: prev.acceptedBy };
}

/** A finished service cycle (stored item; a report lists them by month of finish, docs/product/dashboard.md). */
export const TicketCycle = z.object({
  companyId: z.number().int(),
  ticketId: z.number().int(),
  contactId: z.number().int(),
  queueId: z.number().int().nullable(),
  whatsappId: z.number().int(),
  queuedAt: z.string(),
  acceptedAt: z.string().nullable(),
  /** Who accepted it (null: closed without being accepted). */
  acceptedBy: z.number().int().nullable(),
  /** The attendant when it finished (the rated one). */
  userId: z.number().int().nullable(),
  finishedAt: z.string(),
  waitSeconds: z.number().int(),
  handlingSeconds: z.number().int(),
  ratedAt: z.string().nullable().default(null),
  rate: z.number().int().min(1).max(3).nullable().default(null),
  /**
   * The contact as a report row shows it: written by the closing transaction (which checks it against the contact
   * item) and kept current by the reports' contact listener (docs/product/reports.md#keys). Absent on cycles stored
   * before it was kept: their rows read the contact.
   */
  contact: z.object({ name: z.string(), number: z.string() }).optional(),
});
export type TicketCycle = z.infer<typeof TicketCycle>;

/**
 * The cycle `prev` → `next` finishes (null when `next` is not a close), with the customer's rating when the same
 * write stores it.
 */
export function finishedCycle(
  prev: Ticket,
  next: Ticket & { companyId: number; id: number; contactId: number; queueId: number | null; whatsappId: number },
  rating?: { rate: number; ratedAt: string },
): TicketCycle | null {
  if (next.status !== "closed" || prev.status === "closed") return null;
  const queuedAt = prev.queuedAt ?? prev.createdAt;
  const acceptedAt = prev.status === "open" ? (prev.acceptedAt ?? queuedAt) : null;
  return {
    companyId: next.companyId,
    ticketId: next.id,
    contactId: next.contactId,
    queueId: next.queueId,
    whatsappId: next.whatsappId,
    queuedAt,
    acceptedAt,
    acceptedBy: acceptedAt ? (prev.acceptedBy ?? prev.userId) : null,
    userId: next.userId ?? prev.userId,
    finishedAt: next.updatedAt,
    waitSeconds: secondsBetween(queuedAt, acceptedAt),
    handlingSeconds: acceptedAt ? secondsBetween(acceptedAt, prev.ratingAt ?? next.updatedAt) : 0,
    ratedAt: rating?.ratedAt ?? null,
    rate: rating?.rate ?? null,
  };
}
