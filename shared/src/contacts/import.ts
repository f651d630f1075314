/**
 * Contacts from a spreadsheet and many contacts at once (docs/product/contacts.md#import-and-bulk-delete):
 * - `POST /api/contacts/upload` (.xls, .xlsx, .csv) reads the file as the contact list import does
 *   (`contactLists/import.ts`: header, numbers, reasons) and answers the same report: a number new to the company
 *   creates a contact, one a contact already has replaces its name and e-mail (`updated`), the rest are skipped;
 *   `preview` writes nothing;
 * - `POST /api/contacts/delete` `{contactIds}` deletes up to `BULK_DELETE_MAX` (500) contacts in one request (admins);
 * - `POST /api/contacts/import` `{whatsappId?}` turns a connection's phone book (kept from Baileys' `contacts.upsert`)
 *   into contacts: a number no contact has creates one, the rest are counted (docs/product/contacts.md#phone-book-import).
 */
import type { AuthContext } from "../auth/tokens.ts";
import { normalizePhone } from "../contactLists/phone.ts";
import { pagesFrom } from "../db/query.ts";
import { peopleOfUpload } from "../contactLists/service.ts";
import { registerJobKind, startJob } from "../jobs/service.ts";
import type { JobView } from "../jobs/schema.ts";
import { listWhatsappItems } from "../whatsapp/repository.ts";
import { requireWhatsapp } from "../whatsapp/service.ts";
import { countPhoneBook, phoneBookPage } from "./repository.ts";
import type { PhoneBookEntry, PhoneBookImportCounts } from "./schema.ts";
import type { ImportReport } from "../contactLists/import-schema.ts";
import { AppError } from "../errors.ts";
import type { Upload } from "../media/attachments.ts";
import { createContact, deleteContact, findContactIdByNumber, updateContact } from "./service.ts";

export { BULK_DELETE_MAX } from "./contract.ts";

/** `POST /api/contacts/upload`: see the header. File errors as `peopleOfUpload`. */
export async function importContactsFile(companyId: number, upload: { files: Upload[] } | undefined, preview: boolean): Promise<ImportReport> {
  const { people, report } = await peopleOfUpload(upload, ["xlsx", "xls", "csv"]);
  const byRow = new Map(report.map((r) => [r.row, r]));
  for (const p of people) {
    const entry = byRow.get(p.row)!;
    const existing = await findContactIdByNumber(companyId, p.number);
    if (preview) {
      if (existing) Object.assign(entry, { status: "updated", id: existing });
      continue;
    }
    if (existing) {
      await updateContact(companyId, existing, { name: p.name, ...(p.email ? { email: p.email } : {}) });
      Object.assign(entry, { status: "updated", id: existing });
      continue;
    }
    try {
      const c = await createContact(companyId, { name: p.name, number: p.number, email: p.email, disableBot: false, extraInfo: [] });
      entry.id = c.id;
    } catch (err) {
      // Created meanwhile by a message or another user: the row updates that contact.
      if (!(err instanceof AppError && err.code === "ERR_DUPLICATED_CONTACT")) throw err;
      const id = await findContactIdByNumber(companyId, p.number);
      if (id) await updateContact(companyId, id, { name: p.name });
      Object.assign(entry, { status: "updated", id: id ?? undefined });
    }
  }
  const count = (s: string) => report.filter((r) => r.status === s).length;
  return { preview, added: count("added"), updated: count("updated"), skipped: count("skipped"), rows: report };
}

/**
 * `POST /api/contacts/delete` `{contactIds}`: deletes each contact of the caller's company (their tickets stay); ids of no
 * contact of the company are reported in `notFound`, nothing else happens to them. Answers `{deleted, notFound}`.
 */
export async function deleteContacts(companyId: number, contactIds: number[]): Promise<{ deleted: number; notFound: number[] }> {
  let deleted = 0;
  const notFound: number[] = [];
  for (const id of [...new Set(contactIds)]) {
    try {
      await deleteContact(companyId, id);
      deleted++;
    } catch (err) {
      if (err instanceof AppError && err.code === "ERR_NO_CONTACT_FOUND") notFound.push(id);
      else throw err;
    }
  }
  return { deleted, notFound };
}

/** A phone book of at most this many entries is imported within the request; a larger one by a background job. */
export const PHONE_BOOK_INLINE_MAX = 200;

/** Creates the contact of one phone book entry unless its number has one; what happened to it. */
async function importEntry(companyId: number, e: PhoneBookEntry): Promise<keyof PhoneBookImportCounts> {
  const phone = normalizePhone(e.number);
  if ("error" in phone) return "skipped";
  if (await findContactIdByNumber(companyId, phone.number)) return "existing";
  const named = [e.name, e.verifiedName, e.notify].find((n) => n && n.trim().length >= 2)?.trim().slice(0, 50);
  try {
    await createContact(companyId, { name: named ?? phone.number, number: phone.number, email: "", disableBot: false, extraInfo: [] });
    return "added";
  } catch (err) {
    // Created meanwhile (a message, another import): it exists.
    if (err instanceof AppError && err.code === "ERR_DUPLICATED_CONTACT") return "existing";
    throw err;
  }
}

/** Imports one page of the phone book from `startKey`: its counts and where the next page starts. */
async function importPage(companyId: number, whatsappId: number, limit: number, startKey?: Record<string, unknown>) {
  const page = await phoneBookPage(companyId, whatsappId, { limit, startKey });
  const counts: PhoneBookImportCounts = { added: 0, existing: 0, skipped: 0 };
  for (const e of page.entries) counts[await importEntry(companyId, e)]++;
  return { counts, handled: page.entries.length, lastKey: page.lastKey };
}

/**
 * `POST /api/contacts/import`: imports the phone book of connection `whatsappId` of the caller's company (404
 * `ERR_NO_WAPP_FOUND` otherwise), or of its default connection when none is named (404 `ERR_NO_DEF_WAPP_FOUND`).
 * Numbers are normalized as in the spreadsheet imports. Up to {@link PHONE_BOOK_INLINE_MAX} entries the answer is the
 * counts `{added, existing, skipped, total}`; a larger phone book starts an `importPhoneBook` job (202 with the job,
 * whose `result` carries the same counts when done).
 */
export async function importPhoneBook(auth: AuthContext, whatsappId: number | undefined): Promise<(PhoneBookImportCounts & { total: number }) | { job: JobView }> {
  const companyId = auth.companyId;
  let wid = whatsappId;
  if (wid === undefined) {
    const def = (await listWhatsappItems(companyId)).find((w) => w.isDefault);
    if (!def) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
    wid = def.id;
  } else {
    await requireWhatsapp(companyId, wid);
  }
  const total = await countPhoneBook(companyId, wid);
  if (total > PHONE_BOOK_INLINE_MAX) {
    return { job: await startJob(companyId, auth.userId, "importPhoneBook", { whatsappId: wid }) };
  }
  const counts: PhoneBookImportCounts = { added: 0, existing: 0, skipped: 0 };
  let handled = 0;
  for await (const page of pagesFrom((startKey) => importPage(companyId, wid, 100, startKey))) {
    for (const k of Object.keys(counts) as (keyof PhoneBookImportCounts)[]) counts[k] += page.counts[k];
    handled += page.handled;
  }
  return { ...counts, total: handled };
}

/**
 * One step of an `importPhoneBook` job: the next `limit` entries from the saved key. Idempotent: an entry a dead
 * consumer imported unsaved finds its contact and counts as existing.
 */
registerJobKind("importPhoneBook", async (job, limit) => {
  const whatsappId = Number(job.params.whatsappId);
  const total = job.total === null ? await countPhoneBook(job.companyId, whatsappId) : undefined;
  const startKey = job.cursor ? (JSON.parse(job.cursor) as Record<string, unknown>) : undefined;
  const page = await importPage(job.companyId, whatsappId, limit, startKey);
  return { handled: page.handled, total, cursor: page.lastKey ? JSON.stringify(page.lastKey) : null, finished: !page.lastKey, counts: page.counts };
});
