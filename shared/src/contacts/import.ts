/**
 * Contacts from a spreadsheet and many contacts at once (docs/product/contacts.md#import-and-bulk-delete):
 * - `POST /api/contacts/upload` (.xls, .xlsx, .csv) reads the file as the contact list import does
 *   (`contactLists/import.ts`: header, numbers, reasons) and answers the same report: a number new to the company
 *   creates a contact, one a contact already has replaces its name and e-mail (`updated`), the rest are skipped;
 *   `preview` writes nothing;
 * - `POST /api/contacts/delete` `{contactIds}` deletes up to `BULK_DELETE_MAX` (500) contacts in one request (admins).
 */
import { peopleOfUpload } from "../contactLists/service.ts";
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
