/**
 * Help video rules (docs/product/helps.md).
 *
 * - Helps are platform-wide: every logged-in user of every company reads the same list, sorted by title.
 * - Only super users create, change and delete them (the contract's `super` level: 403 `ERR_NO_PERMISSION` for anyone
 *   else, before this service runs).
 * - `video` is stored as the YouTube code (an address pasted in the form is reduced to its code by the schema).
 */
import { nowIso } from "../common.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import "./errors.ts";
import { deleteHelpItem, listHelpItems, putNewHelp, updateHelpItem } from "./repository.ts";
import { HELPS_PAGE_SIZE, type CreateHelpBody, type Help, type HelpItem, type HelpsPage, type PageHelpsQuery, type UpdateHelpBody } from "./schema.ts";

const byTitle = (a: HelpItem, b: HelpItem) => a.title.localeCompare(b.title, "pt", { sensitivity: "base" }) || a.id - b.id;

/** `GET /api/helps/list` (any user of any company): every help, by title. */
export async function listHelps(): Promise<Help[]> {
  return (await listHelpItems()).sort(byTitle);
}

/** `GET /api/helps` (any user): one page of {@link HELPS_PAGE_SIZE} helps whose title contains `searchParam` → `{records, count, hasMore}`. */
export async function pageHelps(q: PageHelpsQuery): Promise<HelpsPage> {
  const term = normalizeName(q.searchParam ?? "");
  const all = (await listHelps()).filter((h) => !term || normalizeName(h.title).includes(term));
  const from = (q.pageNumber - 1) * HELPS_PAGE_SIZE;
  const records = all.slice(from, from + HELPS_PAGE_SIZE);
  return { records, count: all.length, hasMore: from + records.length < all.length };
}

/** `POST /api/helps` (super): a new help. */
export async function createHelp(body: CreateHelpBody): Promise<Help> {
  const now = nowIso();
  const item: HelpItem = { id: await nextId("GLOBAL", "help"), title: body.title, description: body.description ?? "", video: body.video, createdAt: now, updatedAt: now };
  await putNewHelp(item);
  return item;
}

/** `PUT /api/helps/{id}` (super): changes the given fields; 404 `ERR_NO_HELP_FOUND` when there is no such help. */
export async function updateHelp(id: number, body: UpdateHelpBody): Promise<Help> {
  const after = await updateHelpItem(id, { title: body.title, description: body.description, video: body.video }, nowIso());
  if (!after) throw new AppError("ERR_NO_HELP_FOUND");
  return after;
}

/** `DELETE /api/helps/{id}` (super): 404 `ERR_NO_HELP_FOUND` when there is no such help. */
export async function deleteHelp(id: number): Promise<void> {
  if (!(await deleteHelpItem(id))) throw new AppError("ERR_NO_HELP_FOUND");
}
