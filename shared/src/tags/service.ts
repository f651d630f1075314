/**
 * Tag rules (docs/product/tags.md).
 *
 * - Every user of the company reads, creates, edits and deletes tags (the Tags page is in the agents' menu too);
 *   the kanban switch (setting or changing `kanban`) only for admin and supervisor profiles and super users
 *   (403 `ERR_NO_PERMISSION`, nothing written).
 * - name required, at least 3 characters, unique in the company in any letter case (409
 *   `ERR_TAG_NAME_ALREADY_EXISTS`, by a name marker written with the tag); colour a hex colour (default
 *   {@link DEFAULT_TAG_COLOR}); `userId` a user of the company (default: the creator).
 * - A refused creation takes no id: every check runs before the id counter.
 * - A ticket's tags change only for a caller who may see the ticket (404 / 403 as for the ticket itself); every
 *   change keeps `ticketsCount` exact (see `repository.ts`) and publishes the ticket (`company-{id}-ticket` update)
 *   and the tags whose count moved (`company-{id}-tag` update).
 * - Deleting a tag removes its edges and takes it off every ticket that had it.
 * - Realtime: every tag change goes out through {@link emitTag} only.
 */
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { dispatch } from "../events/index.ts";
import { pendingRunPuts } from "../events/durable.ts";
import "../tickets/events.ts";
import "./errors.ts";
import "./events.ts";
import { z } from "zod";
import { registerJobKind, startJob } from "../jobs/service.ts";
import type { JobView } from "../jobs/schema.ts";
import { getTicketItem } from "../tickets/repository.ts";
import { canSeeInCompany } from "../access/visibility.ts";
import { getAccessibleTicket, toTicketView } from "../tickets/service.ts";
import type { TicketItem, TicketView } from "../tickets/schema.ts";
import { getUser } from "../users/repository.ts";
import {
  batchGetTags,
  deleteEdge,
  countTagEdges,
  deleteTagItem,
  getTag,
  listTags,
  putNewTag,
  queryTagEdges,
  updateTagFields,
  writeTicketTags,
} from "./repository.ts";
import {
  DEFAULT_TAG_COLOR,
  MAX_TAGS_PER_TICKET,
  TAGS_PAGE_SIZE,
  type CreateTagBody,
  type KanbanTags,
  type ListTagsQuery,
  type SimpleListTagsQuery,
  type SyncTagsBody,
  type Tag,
  type TagEvent,
  type TagItem,
  type TagsPage,
  type UpdateTagBody,
} from "./schema.ts";

// ---------------------------------------------------------------------------------------------
// Realtime: the ONE place tag changes become domain events (`./events.ts` maps them to `company-{id}-tag`).

/**
 * Emits `tag.created|updated|deleted` for the `{action, tag|tagId}` change (`changed`: the only fields an update moved,
 * when known). Never throws (dispatch logs).
 */
export async function emitTag(companyId: number, event: TagEvent, changed?: string[]): Promise<void> {
  if (event.action === "delete") await dispatch({ type: "tag.deleted", companyId, tagId: event.tagId });
  else if (event.action === "create") await dispatch({ type: "tag.created", companyId, tag: event.tag });
  else await dispatch({ type: "tag.updated", companyId, tag: event.tag, ...(changed ? { changed } : {}) });
}

// ---------------------------------------------------------------------------------------------
// Rights

/** True when the caller may use the tag modal's kanban switch (docs/product/tags.md#rights): admin, supervisor or super. */
export const mayUseKanbanSwitch = (a: Pick<AuthContext, "profile" | "super">) => can(a, "tags:kanban");

async function checkOwner(auth: AuthContext, userId: number | null | undefined): Promise<void> {
  if (userId == null || userId === auth.userId) return;
  if (!(await getUser(auth.companyId, userId))) throw new AppError("ERR_NO_USER_FOUND");
}

const byName = (a: TagItem, b: TagItem) => a.name.localeCompare(b.name, "pt", { sensitivity: "base" }) || a.id - b.id;

function matching(tags: TagItem[], searchParam: string | undefined): TagItem[] {
  const term = normalizeName(searchParam ?? "");
  return term ? tags.filter((t) => normalizeName(t.name).includes(term)) : tags;
}

// ---------------------------------------------------------------------------------------------
// Tags CRUD

/**
 * `GET /api/tags` (any user): the company's tags whose name contains `searchParam` (accent- and case-insensitive),
 * by name, {@link TAGS_PAGE_SIZE} per page → `{tags, count, hasMore}` (`count` = all matching tags). Tags are a small
 * bounded collection of the company partition: one consistent Query reads them.
 */
export async function listTagsPage(auth: AuthContext, q: ListTagsQuery): Promise<TagsPage> {
  const all = matching(await listTags(auth.companyId), q.searchParam).sort(byName);
  const from = (q.pageNumber - 1) * TAGS_PAGE_SIZE;
  const tags = all.slice(from, from + TAGS_PAGE_SIZE);
  return { tags, count: all.length, hasMore: from + tags.length < all.length };
}

/** `GET /api/tags/list` (any user): every tag of the company (optionally matching `searchParam`), by name, for selects. */
export async function listAllTags(auth: AuthContext, q: SimpleListTagsQuery): Promise<Tag[]> {
  return matching(await listTags(auth.companyId), q.searchParam).sort(byName);
}

/** `GET /api/tags/kanban` (any user): the kanban lanes, i.e. tags with `kanban = 1`, in creation order → `{lista}`. */
export async function kanbanTags(auth: AuthContext): Promise<KanbanTags> {
  return { lista: (await listTags(auth.companyId)).filter((t) => t.kanban === 1) };
}

/** `GET /api/tags/{id}`: one tag of the caller's company, else 404 `ERR_NO_TAG_FOUND`. */
export async function showTag(auth: AuthContext, tagId: number): Promise<Tag> {
  const t = await getTag(auth.companyId, tagId);
  if (!t) throw new AppError("ERR_NO_TAG_FOUND");
  return t;
}

/**
 * 409 `ERR_TAG_NAME_ALREADY_EXISTS` when another tag of the company (not `exceptTagId`) has `name` in any letter case.
 * Read from the company's tags before anything is written, so a refused save takes no id; the name marker written
 * with the tag settles two saves at the same time.
 */
async function requireFreeName(companyId: number, name: string, exceptTagId?: number): Promise<void> {
  const wanted = name.trim().toLowerCase();
  const taken = (await listTags(companyId)).some((t) => t.id !== exceptTagId && t.name.trim().toLowerCase() === wanted);
  if (taken) throw new AppError("ERR_TAG_NAME_ALREADY_EXISTS");
}

/**
 * `POST /api/tags` (any user): creates a tag in the caller's company (`userId` default the caller). `kanban = 1` from a
 * plain user → 403 `ERR_NO_PERMISSION`; an unknown `userId` → 404 `ERR_NO_USER_FOUND`; a name taken → 409
 * `ERR_TAG_NAME_ALREADY_EXISTS`. Emits `create`.
 */
export async function createTag(auth: AuthContext, body: CreateTagBody): Promise<Tag> {
  const kanban = body.kanban ?? 0;
  if (kanban === 1 && !mayUseKanbanSwitch(auth)) throw new AppError("ERR_NO_PERMISSION");
  await checkOwner(auth, body.userId);
  await requireFreeName(auth.companyId, body.name);
  const now = nowIso();
  const tag: TagItem = {
    id: await nextId(auth.companyId, "tag"),
    companyId: auth.companyId,
    name: body.name,
    color: body.color ?? DEFAULT_TAG_COLOR,
    kanban,
    userId: body.userId === undefined ? auth.userId : body.userId,
    ticketsCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  await putNewTag(tag);
  await emitTag(auth.companyId, { action: "create", tag });
  return tag;
}

/**
 * `PUT /api/tags/{id}` (any user): changes the given fields. Changing `kanban` is for admin/supervisor only (403
 * `ERR_NO_PERMISSION`; sending the current value back is allowed). 404 `ERR_NO_TAG_FOUND` for another company's tag.
 * Emits `update`.
 */
export async function updateTag(auth: AuthContext, tagId: number, body: UpdateTagBody): Promise<Tag> {
  const before = await showTag(auth, tagId);
  if (body.kanban !== undefined && body.kanban !== before.kanban && !mayUseKanbanSwitch(auth)) throw new AppError("ERR_NO_PERMISSION");
  if (body.userId !== undefined && body.userId !== before.userId) await checkOwner(auth, body.userId);
  if (body.name !== undefined) await requireFreeName(auth.companyId, body.name, tagId);
  const fields = {
    name: body.name ?? before.name,
    color: body.color ?? before.color,
    kanban: body.kanban ?? before.kanban,
    userId: body.userId === undefined ? before.userId : body.userId,
    updatedAt: nowIso(),
  };
  // Written with the pending runs of its `tag.updated` (the rows of the tag's tickets show its name and colour).
  const after = await updateTagFields(before, fields, pendingRunPuts({ type: "tag.updated", companyId: auth.companyId, tag: { ...before, ...fields } }));
  if (!after) throw new AppError("ERR_NO_TAG_FOUND");
  await emitTag(auth.companyId, { action: "update", tag: after });
  return after;
}

/**
 * `DELETE /api/tags/{id}` (any user): deletes the tag at once (it leaves every list: `delete` with `tagId`) and
 * starts the background job that takes it off every ticket (`deleteTag` kind below). Returns the job.
 */
export async function deleteTag(auth: AuthContext, tagId: number): Promise<JobView> {
  const tag = await showTag(auth, tagId);
  if (!(await deleteTagItem(tag))) throw new AppError("ERR_NO_TAG_FOUND");
  await emitTag(auth.companyId, { action: "delete", tagId });
  return startJob(auth.companyId, auth.userId, "deleteTag", { tagId });
}

/** Where a `deleteTag` job goes on: the index pass (0-2) and the last edge key handled in it. */
const DeleteTagCursor = z.object({ pass: z.number().int(), found: z.number().int(), key: z.record(z.string(), z.unknown()).optional() });

/**
 * One step of a `deleteTag` job: takes the deleted tag off the next `limit` tickets of its edges (each one
 * conditional, so a repeated ticket changes nothing) and publishes each. The index is walked again until a pass finds
 * no edge (at most 3 passes), so an edge whose index entry lagged is still removed.
 */
registerJobKind("deleteTag", async (job, limit) => {
  const tagId = Number(job.params.tagId);
  const at = job.cursor ? DeleteTagCursor.parse(JSON.parse(job.cursor)) : { pass: 0, found: 0 };
  const total = job.total === null ? await countTagEdges(job.companyId, tagId) : undefined;
  const page = await queryTagEdges(job.companyId, tagId, { limit, startKey: at.key });
  for (let i = 0; i < page.edges.length; i += 8) {
    await Promise.all(page.edges.slice(i, i + 8).map((e) => untagTicketOfDeletedTag(job.companyId, e.ticketId, tagId)));
  }
  const found = at.found + page.edges.length;
  if (page.lastKey) return { handled: page.edges.length, total, cursor: JSON.stringify({ pass: at.pass, found, key: page.lastKey }), finished: false };
  const again = found > 0 && at.pass < 2;
  return { handled: page.edges.length, total, cursor: again ? JSON.stringify({ pass: at.pass + 1, found: 0 }) : null, finished: !again };
});

/** Takes a deleted tag off one ticket (edge + `tagIds`, no count: the tag is gone) and publishes the ticket. */
async function untagTicketOfDeletedTag(companyId: number, ticketId: number, tagId: number): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const t = await getTicketItem(companyId, ticketId, true);
    if (!t?.tagIds.includes(tagId)) {
      await deleteEdge(companyId, ticketId, tagId); // orphan edge (ticket gone, or already untagged)
      return;
    }
    const r = await writeTicketTags(t, t.tagIds.filter((x) => x !== tagId), new Set([tagId]));
    if (r.ok) {
      const fresh = await getTicketItem(companyId, ticketId, true);
      if (fresh) await dispatch({ type: "ticket.updated", companyId, ticket: fresh });
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A ticket's tags

/**
 * Applies `compute(currentTagIds)` to a ticket the caller may see (404 `ERR_NO_TICKET_FOUND` / 403
 * `ERR_NO_PERMISSION`), retrying on a concurrent change (409 `ERR_CONFLICT` after 6 tries). A tag that is not the
 * company's → 404 `ERR_NO_TAG_FOUND`, nothing written. Publishes the ticket and the tags whose count moved; returns
 * the ticket as the API shows it (with `tags`).
 */
async function changeTicketTags(auth: AuthContext, ticketId: number, compute: (current: number[]) => number[]): Promise<TicketView> {
  const cid = auth.companyId;
  let ticket: TicketItem = await getAccessibleTicket(auth, ticketId);
  const deleted = new Set<number>();
  for (let attempt = 0; attempt < 6; attempt++) {
    const next = compute(ticket.tagIds);
    if (new Set(next).size > MAX_TAGS_PER_TICKET) throw new AppError("ERR_VALIDATION", { fields: [{ path: "tags", message: `At most ${MAX_TAGS_PER_TICKET} tags` }] });
    const r = await writeTicketTags(ticket, next, deleted);
    if (r.ok) {
      const fresh = (await getTicketItem(cid, ticket.id, true)) ?? { ...ticket, tagIds: [...new Set(next)].sort((a, b) => a - b) };
      if (r.added.length || r.removed.length) {
        await dispatch({ type: "ticket.updated", companyId: cid, ticket: fresh });
        const moved = await batchGetTags(cid, [...r.added, ...r.removed]);
        for (const tag of moved.values()) await emitTag(cid, { action: "update", tag }, ["ticketsCount"]);
      }
      return toTicketView(cid, fresh);
    }
    if (r.reason === "missingTag") throw new AppError("ERR_NO_TAG_FOUND");
    if (r.reason === "goneTag") deleted.add(r.tagId);
    const again = await getTicketItem(cid, ticket.id, true);
    if (!again) throw new AppError("ERR_NO_TICKET_FOUND");
    if (!(await canSeeInCompany(auth, again, cid))) throw new AppError("ERR_NO_PERMISSION");
    ticket = again;
  }
  throw new AppError("ERR_CONFLICT");
}

/** `POST /api/tags/sync` (any user who may see the ticket): the ticket's tags become exactly `tags`. */
export function syncTicketTags(auth: AuthContext, body: SyncTagsBody): Promise<TicketView> {
  return changeTicketTags(auth, body.ticketId, () => body.tags);
}

/** `PUT /api/ticket-tags/{ticketId}/{tagId}`: adds one tag to the ticket (already there: unchanged). */
export function addTicketTag(auth: AuthContext, ticketId: number, tagId: number): Promise<TicketView> {
  return changeTicketTags(auth, ticketId, (current) => [...current, tagId]);
}

/** `DELETE /api/ticket-tags/{ticketId}`: removes every tag of the ticket. */
export function removeTicketTags(auth: AuthContext, ticketId: number): Promise<TicketView> {
  return changeTicketTags(auth, ticketId, () => []);
}
