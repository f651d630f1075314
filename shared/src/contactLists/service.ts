/**
 * Contact list rules (docs/product/contact-lists.md). The routes are the admins' (plan useCampaigns); every read and
 * write is keyed by the caller's company, and a list or item of another company is answered as missing (404).
 *
 * - A list: name 2-50; `contactsCount` is exact (moved in the same transaction as every item written or deleted).
 * - An item: name 2-50, number 8-50 characters normalized to digits with the country code (`./phone.ts`; a number
 *   that is no phone number is 400 `ERR_INVALID_PHONE_NUMBER`), email valid or empty; one item per number in a list
 *   (409 `ERR_CONTACT_LIST_ITEM_DUPLICATED`). Deleting one needs `contacts-page:deleteContact`.
 * - Deleting a list deletes its items.
 * - Campaigns read a list's reachable people with {@link validContactListItems}.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId, nextIds } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import type { JobItem, JobView } from "../jobs/schema.ts";
import { type JobStepResult, registerJobKind, startJob } from "../jobs/service.ts";
import { log } from "../log.ts";
import { deleteMedia, getMedia, putMedia } from "../storage/media.ts";
import "./errors.ts";
import "./events.ts";
import type { Upload } from "../media/attachments.ts";
import { ContactListImportCursor, ContactListImportJobParams, ImportPersonSchema, type ImportReport, type ImportRowReport } from "./import-schema.ts";
import { type ImportPerson, peopleOf } from "./import.ts";
import { normalizePhone } from "./phone.ts";
import { checkSpreadsheet, readSpreadsheet, type SpreadsheetKind, spreadsheetKind } from "./spreadsheet.ts";
import { requestWhatsappCheck } from "./whatsapp-check.ts";
import {
  addContactListItem,
  contactListItemPages,
  deleteContactListAll,
  deleteContactListItemRow,
  getContactList,
  getContactListItem,
  IMPORT_TX_ACTIONS,
  importActions,
  itemIdOfNumber,
  itemsOfNumbers,
  listContactListItems,
  listContactLists,
  listOfItem,
  putNewContactList,
  renameContactList,
  replaceContactListItem,
  writeImportChunk,
} from "./repository.ts";
import {
  CONTACT_LIST_ITEMS_PAGE_SIZE,
  CONTACT_LISTS_PAGE_SIZE,
  type ContactList,
  type ContactListBody,
  type ContactListItem,
  type ContactListItemRow,
  type ContactListItemsPage,
  type ContactListRow,
  type ContactListsPage,
  type CreateContactListItemBody,
  type PageContactListItemsQuery,
  type PageContactListsQuery,
  type UpdateContactListItemBody,
} from "./schema.ts";

const byName = <T extends { name: string; id: number }>(a: T, b: T) => a.name.localeCompare(b.name, "pt", { sensitivity: "base" }) || a.id - b.id;

/** One list of the caller's company, else 404 `ERR_NO_CONTACT_LIST_FOUND`. */
export async function requireContactList(companyId: number, id: number): Promise<ContactListRow> {
  const list = await getContactList(companyId, id);
  if (!list) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
  return list;
}

/** `GET /api/contact-lists`: one page of {@link CONTACT_LISTS_PAGE_SIZE} by name → `{records, count, hasMore}`. */
export async function pageContactLists(auth: AuthContext, q: PageContactListsQuery): Promise<ContactListsPage> {
  const term = normalizeName(q.searchParam ?? "");
  const all = (await listContactLists(auth.companyId)).filter((l) => !term || normalizeName(l.name).includes(term)).sort(byName);
  const from = (q.pageNumber - 1) * CONTACT_LISTS_PAGE_SIZE;
  const records = all.slice(from, from + CONTACT_LISTS_PAGE_SIZE);
  return { records, count: all.length, hasMore: from + records.length < all.length };
}

/** `GET /api/contact-lists/list`: every list of the caller's company, by name. */
export async function allContactLists(auth: AuthContext): Promise<ContactList[]> {
  return (await listContactLists(auth.companyId)).sort(byName);
}

/** `GET /api/contact-lists/{id}`: 404 `ERR_NO_CONTACT_LIST_FOUND` when not in the caller's company. */
export async function showContactList(auth: AuthContext, id: number): Promise<ContactList> {
  return requireContactList(auth.companyId, id);
}

/** `POST /api/contact-lists`: a new empty list (`contactsCount` 0). Dispatches `contactList.created`. */
export async function createContactList(auth: AuthContext, body: ContactListBody): Promise<ContactList> {
  const now = nowIso();
  const record: ContactListRow = { id: await nextId(auth.companyId, "contactList"), companyId: auth.companyId, name: body.name, contactsCount: 0, createdAt: now, updatedAt: now };
  await putNewContactList(record);
  await dispatch({ type: "contactList.created", companyId: auth.companyId, record });
  return record;
}

/** `PUT /api/contact-lists/{id}`: renames it (404 as above). Dispatches `contactList.updated`. */
export async function updateContactList(auth: AuthContext, id: number, body: ContactListBody): Promise<ContactList> {
  const record = await renameContactList(auth.companyId, id, body.name, nowIso());
  if (!record) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
  await dispatch({ type: "contactList.updated", companyId: auth.companyId, record });
  return record;
}

/** `DELETE /api/contact-lists/{id}`: the list and all its items (404 as above). Dispatches `contactList.deleted`. */
export async function deleteContactList(auth: AuthContext, id: number): Promise<void> {
  if (!(await deleteContactListAll(auth.companyId, id))) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
  await dispatch({ type: "contactList.deleted", companyId: auth.companyId, id });
}

/** The normalized number of a form's `number`, else 400 `ERR_INVALID_PHONE_NUMBER`. */
function numberOf(typed: string): string {
  const n = normalizePhone(typed);
  if ("error" in n) throw new AppError("ERR_INVALID_PHONE_NUMBER");
  return n.number;
}

/** One item of the caller's company (through its ref), else 404 `ERR_NO_CONTACT_LIST_ITEM_FOUND`. */
async function requireItem(companyId: number, id: number): Promise<ContactListItemRow> {
  const listId = await listOfItem(companyId, id);
  const item = listId === undefined ? undefined : await getContactListItem(companyId, listId, id);
  if (!item) throw new AppError("ERR_NO_CONTACT_LIST_ITEM_FOUND");
  return item;
}

/**
 * `GET /api/contact-list-items`: one page of {@link CONTACT_LIST_ITEMS_PAGE_SIZE} items of a list of the caller's
 * company by name (404 `ERR_NO_CONTACT_LIST_FOUND` otherwise); `searchParam` matches name, number or email.
 */
export async function pageContactListItems(auth: AuthContext, q: PageContactListItemsQuery): Promise<ContactListItemsPage> {
  await requireContactList(auth.companyId, q.contactListId);
  const term = normalizeName(q.searchParam ?? "");
  const all = (await listContactListItems(auth.companyId, q.contactListId))
    .filter((i) => !term || normalizeName(i.name).includes(term) || i.number.includes(term) || i.email.toLowerCase().includes(term))
    .sort(byName);
  const from = (q.pageNumber - 1) * CONTACT_LIST_ITEMS_PAGE_SIZE;
  const contacts = all.slice(from, from + CONTACT_LIST_ITEMS_PAGE_SIZE);
  return { contacts, count: all.length, hasMore: from + contacts.length < all.length };
}

/** `GET /api/contact-list-items/{id}`: 404 `ERR_NO_CONTACT_LIST_ITEM_FOUND` when not in the caller's company. */
export async function showContactListItem(auth: AuthContext, id: number): Promise<ContactListItem> {
  return requireItem(auth.companyId, id);
}

/**
 * `POST /api/contact-list-items`: adds a person to a list of the caller's company (404 `ERR_NO_CONTACT_LIST_FOUND`),
 * number normalized (400 `ERR_INVALID_PHONE_NUMBER`), unique in the list (409 `ERR_CONTACT_LIST_ITEM_DUPLICATED`);
 * `isWhatsappValid` false until the WhatsApp check answers. Dispatches the item and the list's new count.
 */
export async function createContactListItem(auth: AuthContext, body: CreateContactListItemBody): Promise<ContactListItem> {
  await requireContactList(auth.companyId, body.contactListId);
  const number = numberOf(body.number);
  const now = nowIso();
  const record: ContactListItemRow = {
    id: await nextId(auth.companyId, "contactListItem"),
    companyId: auth.companyId,
    contactListId: body.contactListId,
    name: body.name,
    number,
    email: body.email,
    isWhatsappValid: false,
    whatsappCheckedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await addContactListItem(record);
  await dispatch({ type: "contactListItem.created", companyId: auth.companyId, record });
  await dispatchListCount(auth.companyId, body.contactListId);
  await requestWhatsappCheck(auth.companyId, body.contactListId, [record]);
  return record;
}

/**
 * `PUT /api/contact-list-items/{id}`: changes the given fields (404 / 400 / 409 as for a creation; 409 `ERR_CONFLICT`
 * when it changed meanwhile). A new number is checked on WhatsApp again (false until then).
 */
export async function updateContactListItem(auth: AuthContext, id: number, body: UpdateContactListItemBody): Promise<ContactListItem> {
  const before = await requireItem(auth.companyId, id);
  const number = body.number === undefined ? before.number : numberOf(body.number);
  const moved = number !== before.number;
  const after: ContactListItemRow = {
    ...before,
    name: body.name ?? before.name,
    number,
    email: body.email ?? before.email,
    ...(moved ? { isWhatsappValid: false, whatsappCheckedAt: null } : {}),
    updatedAt: nowIso(),
  };
  if (!(await replaceContactListItem(before, after))) throw new AppError("ERR_CONFLICT");
  await dispatch({ type: "contactListItem.updated", companyId: auth.companyId, record: after });
  if (moved) await requestWhatsappCheck(auth.companyId, after.contactListId, [after]);
  return after;
}

/** `DELETE /api/contact-list-items/{id}`: needs `contacts-page:deleteContact` (403); 404 as above. Moves the count − 1. */
export async function deleteContactListItem(auth: AuthContext, id: number): Promise<void> {
  if (!can(auth, "contacts-page:deleteContact")) throw new AppError("ERR_NO_PERMISSION");
  const before = await requireItem(auth.companyId, id);
  if (!(await deleteContactListItemRow(before, nowIso()))) throw new AppError("ERR_CONFLICT");
  await dispatch({ type: "contactListItem.deleted", companyId: auth.companyId, id, contactListId: before.contactListId });
  await dispatchListCount(auth.companyId, before.contactListId);
}

/** Dispatches the list as it now stands (its count moved). */
export async function dispatchListCount(companyId: number, contactListId: number): Promise<void> {
  const record = await getContactList(companyId, contactListId);
  if (record) await dispatch({ type: "contactList.updated", companyId, record });
}

/** Items per read of {@link validContactListItems}. */
const VALID_ITEMS_PAGE = 200;

/**
 * The list's items with `isWhatsappValid` true, in stable order (by item id), paged internally (a 10,000-person list
 * is never held whole): what a campaign sends to.
 * @throws AppError `ERR_NO_CONTACT_LIST_FOUND` (404) for a list not in the company.
 */
export async function* validContactListItems(companyId: number, contactListId: number): AsyncGenerator<{ id: number; name: string; number: string; email: string }> {
  await requireContactList(companyId, contactListId);
  for await (const page of contactListItemPages(companyId, contactListId, VALID_ITEMS_PAGE)) {
    for (const i of page) if (i.isWhatsappValid) yield { id: i.id, name: i.name, number: i.number, email: i.email };
  }
}

/**
 * The spreadsheet of an upload, checked without reading it: 400 `ERR_VALIDATION` (`file` Required) without a file,
 * 400 `ERR_IMPORT_FILE_TYPE` for a kind not `accepted`, 400 `ERR_IMPORT_FILE_UNREADABLE` for one too large or not of
 * its kind's container (`checkSpreadsheet`). Returns the file and its kind.
 */
export function spreadsheetOfUpload(upload: { files: Upload[] } | undefined, accepted: SpreadsheetKind[]): { file: Upload; kind: SpreadsheetKind } {
  const file = upload?.files[0];
  if (!file) throw new AppError("ERR_VALIDATION", { fields: [{ path: "file", message: "Required" }] });
  const kind = spreadsheetKind(file.filename, file.mimetype);
  if (!kind || !accepted.includes(kind)) throw new AppError("ERR_IMPORT_FILE_TYPE");
  checkSpreadsheet(kind, file.content);
  return { file, kind };
}

/**
 * The rows of an uploaded spreadsheet of one of the `accepted` kinds: errors as {@link spreadsheetOfUpload}, and 400
 * `ERR_IMPORT_FILE_UNREADABLE` when it cannot be read. Shared by the contact list preview and the contacts import.
 */
export async function peopleOfUpload(upload: { files: Upload[] } | undefined, accepted: SpreadsheetKind[]): Promise<ReturnType<typeof peopleOf>> {
  const { file, kind } = spreadsheetOfUpload(upload, accepted);
  return peopleOf(await readSpreadsheet(kind, file.content));
}

/** Where an import's uploaded file and then its people wait for its job, in the media bucket (deleted when it ends). */
const importKey = (companyId: number, id: string, ext: string) => `media/${companyId}/imports/contact-lists/${id}.${ext}`;

const MIME: Record<"xlsx" | "xls", string> = { xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", xls: "application/vnd.ms-excel" };

/**
 * `POST /api/contact-lists/{id}/upload`: imports one .xls or .xlsx into a list of the caller's company (404
 * `ERR_NO_CONTACT_LIST_FOUND`; no file, another type, a file too large or not a workbook: the errors of
 * {@link spreadsheetOfUpload}, answered at once, nothing written). `preview` reads the file and answers the report
 * without writing: a number new to the list is added, one already there has its name and e-mail replaced (`updated`;
 * a new number's WhatsApp state is unknown until checked), the rest are skipped with their reason. Otherwise the file
 * is kept in the media bucket as it came and an `importContactList` job started (the route answers 202 with it, the
 * file unread): the job reads it (a file that cannot be read fails the job with `ERR_IMPORT_FILE_UNREADABLE`, nothing
 * written), then writes {@link IMPORT_STEP_ROWS} rows per step; its `result` ends with `{added, updated, skipped}`.
 */
export async function importContactListFile(auth: AuthContext, contactListId: number, upload: { files: Upload[] } | undefined, preview: boolean): Promise<ImportReport | { job: JobView }> {
  await requireContactList(auth.companyId, contactListId);
  if (preview) {
    const { people, report } = await peopleOfUpload(upload, ["xlsx", "xls"]);
    const existing = new Map((await listContactListItems(auth.companyId, contactListId)).map((i) => [i.number, i]));
    const byRow = new Map(report.map((r) => [r.row, r]));
    for (const p of people) {
      const found = existing.get(p.number);
      const entry = byRow.get(p.row);
      if (found && entry) Object.assign(entry, { status: "updated", id: found.id, isWhatsappValid: found.whatsappCheckedAt ? found.isWhatsappValid : null });
    }
    return summarize(report);
  }
  const { file, kind } = spreadsheetOfUpload(upload, ["xlsx", "xls"]);
  const ext = kind === "xls" ? "xls" : "xlsx";
  const key = importKey(auth.companyId, randomUUID(), ext);
  await putMedia(key, file.content, MIME[ext]);
  const params: ContactListImportJobParams = { contactListId, key, kind: ext };
  return { job: await startJob(auth.companyId, auth.userId, "importContactList", params) };
}

/** The preview report's totals over its rows. */
function summarize(rows: ImportRowReport[]): ImportReport {
  const count = (s: ImportRowReport["status"]) => rows.filter((r) => r.status === s).length;
  return { preview: true, added: count("added"), updated: count("updated"), skipped: count("skipped"), rows };
}

/** Rows one step of an import job writes (a few transactions; progress is saved and shown after each step). */
export const IMPORT_STEP_ROWS = 200;

/** The people of the imports this process is running, read from the bucket once per job (the last two kept). */
const keptPeople = new Map<string, ImportPerson[]>();

function keepPeople(key: string, people: ImportPerson[]): ImportPerson[] {
  keptPeople.set(key, people);
  for (const old of keptPeople.keys()) if (keptPeople.size > 2) keptPeople.delete(old);
  return people;
}

async function peopleOfJob(key: string): Promise<ImportPerson[]> {
  return keptPeople.get(key) ?? keepPeople(key, z.array(ImportPersonSchema).parse(JSON.parse((await getMedia(key)).toString("utf8"))));
}

/** Deletes what an import kept in the bucket (its file, its people), logging what could not be deleted. */
async function dropImportFiles(companyId: number, jobId: string, keys: string[]): Promise<void> {
  for (const key of keys) {
    keptPeople.delete(key);
    await deleteMedia(key).catch((err) => log("warn", "contact list import: a kept file was not deleted", { companyId, jobId, key, err }));
  }
}

/**
 * The first step of an `importContactList` job: reads the uploaded file (the confined reader for .xls, exceljs for
 * .xlsx), keeps its people in the bucket and reserves one item id per person. Writes nothing to the list, so a
 * repetition after a death only reads again (and leaves unused ids). Counts the rows skipped. A file that cannot be
 * read throws `ERR_IMPORT_FILE_UNREADABLE` (the job fails at once with it) after its file is deleted.
 */
async function readImportFile(job: JobItem, p: ContactListImportJobParams): Promise<JobStepResult> {
  const cid = job.companyId;
  let read: ReturnType<typeof peopleOf>;
  try {
    read = peopleOf(await readSpreadsheet(p.kind, await getMedia(p.key)));
  } catch (err) {
    if (err instanceof AppError) await dropImportFiles(cid, job.id, [p.key]);
    throw err;
  }
  const { people, report } = read;
  const key = importKey(cid, job.id, "json");
  await putMedia(key, new TextEncoder().encode(JSON.stringify(people)), "application/json");
  keepPeople(key, people);
  const firstId = people.length ? await nextIds(cid, "contactListItem", people.length) : 1;
  const cursor: ContactListImportCursor = { at: 0, firstId, people: people.length, key };
  const finished = people.length === 0;
  if (finished) await dropImportFiles(cid, job.id, [p.key, key]);
  return { handled: 0, total: people.length, cursor: JSON.stringify(cursor), finished, counts: { added: 0, updated: 0, skipped: report.length - people.length } };
}

/**
 * One step of an `importContactList` job: first the file is read ({@link readImportFile}); then each step writes the
 * next `limit` people from the cursor into the list (with its count) and queues them for the WhatsApp check, with the
 * list's new count. A list deleted meanwhile ends the job. Repeating a step after a death applies nothing twice: a
 * person already added under the id reserved for it counts as added, not written again.
 */
registerJobKind(
  "importContactList",
  async (job, limit) => {
    const p = ContactListImportJobParams.parse(job.params);
    const cid = job.companyId;
    if (job.cursor === null) return readImportFile(job, p);
    const cur = ContactListImportCursor.parse(JSON.parse(job.cursor));
    const counts = { added: 0, updated: 0 };
    let gone = !(await getContactList(cid, p.contactListId));
    const slice = gone ? [] : (await peopleOfJob(cur.key)).slice(cur.at, cur.at + limit);
    if (slice.length) {
      try {
        const written = await writePeople(cid, p.contactListId, slice, cur.firstId + cur.at, counts);
        await dispatchListCount(cid, p.contactListId);
        await requestWhatsappCheck(cid, p.contactListId, written);
      } catch (err) {
        if (!(err instanceof AppError && err.code === "ERR_NO_CONTACT_LIST_FOUND")) throw err;
        gone = true;
      }
    }
    const next = cur.at + slice.length;
    const finished = gone || next >= cur.people;
    if (finished) {
      if (!gone) await dispatch({ type: "contactListItem.reloaded", companyId: cid, contactListId: p.contactListId });
      await dropImportFiles(cid, job.id, [p.key, cur.key]);
    }
    return { handled: slice.length, cursor: JSON.stringify({ ...cur, at: next }), finished, counts };
  },
  { items: IMPORT_STEP_ROWS },
);

/**
 * Writes people of an import into the list (person `i` of `people` planned with id `firstId + i`): new ones as new
 * items, known ones over their item, in transactions of at most {@link IMPORT_TX_ACTIONS} actions. A transaction
 * refused (a number added or an item changed meanwhile) is replayed row by row against what is stored then. Adds to
 * `counts` what each row became; returns the items written (for the WhatsApp check).
 */
async function writePeople(companyId: number, contactListId: number, people: ImportPerson[], firstId: number, counts: { added: number; updated: number }): Promise<ContactListItemRow[]> {
  const now = nowIso();
  const existing = await itemsOfNumbers(companyId, contactListId, people.map((p) => p.number));
  const written: ContactListItemRow[] = [];
  const rows: { person: ImportPerson; before?: ContactListItemRow; after: ContactListItemRow }[] = [];
  people.forEach((p, i) => {
    const id = firstId + i;
    const before = existing.get(p.number);
    if (before?.id === id) {
      // Added by this import in a step whose progress was not saved.
      counts.added++;
      written.push(before);
      return;
    }
    const after: ContactListItemRow = before
      ? { ...before, name: p.name, email: p.email, updatedAt: now }
      : { id, companyId, contactListId, name: p.name, number: p.number, email: p.email, isWhatsappValid: false, whatsappCheckedAt: null, createdAt: now, updatedAt: now };
    rows.push({ person: p, before, after });
  });
  for (let i = 0; i < rows.length; ) {
    const chunk: typeof rows = [];
    let actions = 0;
    while (i < rows.length && actions + importActions(rows[i]!.before ? "update" : "add") <= IMPORT_TX_ACTIONS) {
      actions += importActions(rows[i]!.before ? "update" : "add");
      chunk.push(rows[i]!);
      i++;
    }
    const adds = chunk.filter((r) => !r.before).map((r) => r.after);
    const updates = chunk.flatMap((r) => (r.before ? [{ before: r.before, after: r.after }] : []));
    if (await writeImportChunk(companyId, contactListId, adds, updates, now)) {
      for (const r of chunk) {
        written.push(r.after);
        counts[r.before ? "updated" : "added"]++;
      }
      continue;
    }
    for (const r of chunk) {
      const item = await writeOne(companyId, contactListId, r.person, r.after);
      if (!item) continue;
      written.push(item.row);
      counts[item.status]++;
    }
  }
  return written;
}

/** One row of an import written alone, against what is stored now (after a refused transaction). */
async function writeOne(companyId: number, contactListId: number, p: ImportPerson, planned: ContactListItemRow): Promise<{ row: ContactListItemRow; status: "added" | "updated" } | null> {
  const now = nowIso();
  const id = await itemIdOfNumber(companyId, contactListId, p.number);
  const before = id === undefined ? undefined : await getContactListItem(companyId, contactListId, id);
  if (before?.id === planned.id) return { row: before, status: "added" };
  if (before) {
    const after = { ...before, name: p.name, email: p.email, updatedAt: now };
    return (await replaceContactListItem(before, after)) ? { row: after, status: "updated" } : null;
  }
  const row = { ...planned, createdAt: now, updatedAt: now };
  try {
    await addContactListItem(row);
    return { row, status: "added" };
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_CONTACT_LIST_ITEM_DUPLICATED") return null;
    throw err;
  }
}
