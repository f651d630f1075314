/**
 * The report entries of a finished service cycle (docs/product/reports.md#keys): the items the closing transaction
 * writes beside the cycle, so a report filtered by queue, connection, contact, tag or rate reads one partition of
 * that value instead of filtering the company's cycles. Pure builders; the tickets' repository puts them in its
 * transaction and the backfill writes them for cycles stored before they existed.
 */
import { keys } from "../db/keys.ts";
import type { TicketCycle } from "../tickets/cycles.ts";
import { REPORT_MAX_TAGS } from "./schema.ts";

/** The month partition of an instant (`yyyy-mm`, UTC). */
export const monthOf = (iso: string) => iso.slice(0, 7);

/** The partitions of `c`'s entries: its queue, connection, contact, each tag (at most {@link REPORT_MAX_TAGS}) and its rate. */
export function reportEntryPKs(c: TicketCycle, tagIds: readonly number[]): string[] {
  const m = monthOf(c.finishedAt);
  const cid = c.companyId;
  return [
    ...(c.queueId != null ? [keys.reportEntryPK(cid, "Q", c.queueId, m)] : []),
    keys.reportEntryPK(cid, "W", c.whatsappId, m),
    keys.reportEntryPK(cid, "CT", c.contactId, null),
    ...[...new Set(tagIds)].slice(0, REPORT_MAX_TAGS).map((t) => keys.reportEntryPK(cid, "TG", t, m)),
    ...(c.rate != null ? [keys.reportEntryPK(cid, "R", c.rate, m)] : []),
  ];
}

/** The keys of `c`'s report entries (see {@link reportEntryPKs}), the contact's entry last. */
export function reportEntryKeys(c: TicketCycle, tagIds: readonly number[]): { PK: string; SK: string }[] {
  const ct = keys.reportEntryPK(c.companyId, "CT", c.contactId, null);
  const pks = reportEntryPKs(c, tagIds).filter((pk) => pk !== ct);
  return [...pks, ct].map((pk) => keys.reportEntry(pk, c.finishedAt, c.ticketId));
}

/** The report entry items of `c` (the cycle's fields and the ticket's tags), each in its partition. */
export function reportEntryItems(c: TicketCycle, tagIds: readonly number[]): Record<string, unknown>[] {
  const tags = [...new Set(tagIds)].slice(0, REPORT_MAX_TAGS);
  return reportEntryKeys(c, tags).map((k) => ({ ...k, _type: "reportEntry", ...c, tagIds: tags }));
}
