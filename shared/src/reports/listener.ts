/**
 * The `reportContacts` listener (docs/product/reports.md#keys): a report row shows its contact's name and number from
 * the finished cycle itself (no read of the contact per row), so a contact's new name or number is written on each of
 * its finished cycles: the cycle item and every report entry of it, found by key from the contact's own entry
 * partition (`RPT#CT#<contactId>`), never by a scan.
 *
 * Exact: the closing transaction checks the name and number it stores against the contact item (`tickets/repository.ts`
 * `writeTicketTransition`), so a cycle closed after the rename has the new name, and one closed before it is in the
 * partition this listener reads (strongly consistent). The name written is the contact's as stored when the run reads
 * it, and a run ends only after reading it again unchanged (else it writes them all again), so two renames close
 * together leave the later one.
 *
 * Durable (`events/durable.ts`): a failed run is run again by the minute tick; every write puts the current name, so
 * a repeated run changes nothing twice. A deleted contact keeps its name on its attendances, as its tickets do.
 */
import pLimit from "p-limit";
import { getContactItem } from "../contacts/repository.ts";
import type {} from "../contacts/events.ts"; // the contact events handled here (types only)
import type { Listener } from "../events/registry.ts";
import { contactEntryPages, cycleItemKeys, setCycleContact } from "./repository.ts";

/** Writes at once while renaming a contact's attendances. */
const PARALLEL = 8;
/** Passes of one run at most (each one after the contact changed again during the previous). */
const MAX_PASSES = 5;

/** The contact fields a report row shows. */
const SHOWN = ["name", "number"];

/**
 * Writes contact `contactId`'s current name and number on each of its finished cycles that shows another, then reads
 * the contact again: changed meanwhile, it writes them all again with the newer name. Returns the items written.
 * @throws when the contact changed at each of {@link MAX_PASSES} passes (the durable run is run again later).
 */
export async function renameContactAttendances(companyId: number, contactId: number): Promise<number> {
  const limit = pLimit(PARALLEL);
  let written = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const c = await getContactItem(companyId, contactId, true);
    if (!c) return written;
    const shown = { name: c.name, number: c.number };
    let stale = 0;
    for await (const entries of contactEntryPages(companyId, contactId)) {
      // A later pass writes every cycle: another run's older name may have landed on an item after this run's own.
      const behind = pass === 0 ? entries.filter((e) => e.contact?.name !== shown.name || e.contact?.number !== shown.number) : entries;
      stale += behind.length;
      // The contact's own entry last: a run cut short leaves it behind, so the next run finds that cycle again.
      const results = await Promise.all(
        behind.map((e) => {
          const all = cycleItemKeys(e);
          const [own, rest] = [all[all.length - 1], all.slice(0, -1)];
          return limit(async () => {
            const done = await Promise.all(rest.map((k) => setCycleContact(k, shown)));
            return done.filter(Boolean).length + ((await setCycleContact(own, shown)) ? 1 : 0);
          });
        }),
      );
      written += results.reduce((a, b) => a + b, 0);
    }
    if (!stale) return written;
    const now = await getContactItem(companyId, contactId, true);
    if (!now || (now.name === shown.name && now.number === shown.number)) return written;
  }
  throw new Error(`contact ${contactId} of company ${companyId} renamed at every pass: run again`);
}

/** Keeps the contact's name and number on its finished cycles current (see the module doc). */
export const reportContactsListener: Listener = {
  name: "reportContacts",
  durable: true,
  wants(event) {
    return event.type === "contact.updated" && (!event.changed || event.changed.some((f) => SHOWN.includes(f)));
  },
  async handle(event) {
    if (event.type !== "contact.updated") return;
    await renameContactAttendances(event.companyId, event.contact.id);
  },
};
