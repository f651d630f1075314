/**
 * Tags (docs/product/tags.md: fields, validation, rights, kanban; `GET /tags/list`, `POST /tags/sync`).
 * Three blocks, kept apart so each moves into the per-operation contract files
 * (`contract.ts`) unchanged:
 *
 * 1. stored items (what DynamoDB holds),
 * 2. request schemas (bodies, queries, path params) — the edge parses every input with these,
 * 3. response and realtime shapes (what the API answers and what `company-{id}-tag` carries).
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";

/** Most tags one ticket carries (a sync then fits one DynamoDB transaction: 2 items per changed tag + the ticket). */
export const MAX_TAGS_PER_TICKET = 24;
/** Tags per page of `GET /api/tags`. */
export const TAGS_PAGE_SIZE = 20;
/** Colour a tag gets when created without one (the conversation creates tags from a name only). */
export const DEFAULT_TAG_COLOR = "#A4CCCC";

// ---------------------------------------------------------------------------------------------
// 1. Stored items

/** Tag item `C#<cid>` / `TAG#<id>`. `ticketsCount` is maintained in the same transactions as the tag edges. */
export const TagItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  color: z.string(),
  kanban: z.union([z.literal(0), z.literal(1)]).default(0),
  userId: z.number().int().nullable().default(null),
  ticketsCount: z.number().int().default(0),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TagItem = z.infer<typeof TagItem>;

/** Tag edge `C#<cid>#TK#<tid>` / `TAG#<tagId>` (GSI4 `C#<cid>#TAG#<tagId>` / `T#<ticketCreatedAt>#<tid>`). */
export const TicketTagEdge = z.object({
  companyId: z.number().int(),
  ticketId: z.number().int(),
  tagId: z.number().int(),
  createdAt: z.string(),
});
export type TicketTagEdge = z.infer<typeof TicketTagEdge>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

/** name: required ("Obrigatório"), at least 3 characters ("Mensagem muito curta"), at most 50 (the product's limit for names). */
const tagName = z
  .string({ error: (iss) => (iss.input == null ? "Obrigatório" : "Invalid input") })
  .trim()
  .superRefine((v, ctx) => {
    if (!v) ctx.addIssue({ code: "custom", message: "Obrigatório" });
    else if (v.length < 3) ctx.addIssue({ code: "custom", message: "Mensagem muito curta" });
    else if (v.length > 50) ctx.addIssue({ code: "custom", message: "Too Long!" });
  });

/** A CSS hex colour (`#rgb`, `#rrggbb`, with optional alpha), as the colour picker gives it. */
const tagColor = z.string().trim().regex(/^#[0-9a-fA-F]{3,8}$/, "Invalid color");

/** The kanban flag: 0/1, "0"/"1" or a boolean → 0 | 1. */
const kanbanFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1"])])
  .transform((v): 0 | 1 => (v === true || v === 1 || v === "1" ? 1 : 0));

const ownerId = z.union([z.literal("").transform(() => null), zId.nullable()]);

/** `POST /api/tags`: name (required), color (default {@link DEFAULT_TAG_COLOR}), kanban (default 0), userId. */
export const CreateTagBody = z.object({
  name: tagName,
  color: tagColor.optional(),
  kanban: kanbanFlag.optional(),
  userId: ownerId.optional(),
});
export type CreateTagBody = z.infer<typeof CreateTagBody>;

/** `PUT /api/tags/{id}`: every field optional; absent = unchanged. */
export const UpdateTagBody = z.object({
  name: tagName.optional(),
  color: tagColor.optional(),
  kanban: kanbanFlag.optional(),
  userId: ownerId.optional(),
});
export type UpdateTagBody = z.infer<typeof UpdateTagBody>;

/** `GET /api/tags`: `searchParam` (name contains, accent- and case-insensitive), `pageNumber` (1-based). */
export const ListTagsQuery = z.object({
  searchParam: z.string().max(100).optional(),
  pageNumber: zPageNumber,
});
export type ListTagsQuery = z.infer<typeof ListTagsQuery>;

/** `GET /api/tags/list`: optional `searchParam`; `companyId` (sent by the old clients) is accepted and ignored. */
export const SimpleListTagsQuery = z.object({
  searchParam: z.string().max(100).optional(),
  companyId: z.string().max(20).optional(),
});
export type SimpleListTagsQuery = z.infer<typeof SimpleListTagsQuery>;

/** A tag given by id or as the tag object the web holds (`{id, name, color}`); only the id is used. */
const tagRef = z.union([zId, z.object({ id: zId }).passthrough().transform((t) => t.id)]);

/** `POST /api/tags/sync`: the ticket's complete new tag set. */
export const SyncTagsBody = z.object({
  ticketId: zId,
  tags: z.array(tagRef).max(MAX_TAGS_PER_TICKET, `At most ${MAX_TAGS_PER_TICKET} tags`),
});
export type SyncTagsBody = z.infer<typeof SyncTagsBody>;

export const TagIdParams = z.object({ id: zId });
export const TicketTagParams = z.object({ ticketId: zId, tagId: zId });
export const TicketParams = z.object({ ticketId: zId });

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/** A tag as every route returns it (id, name, color, kanban, userId, ticketsCount; docs/product/tags.md#fields). */
export const Tag = TagItem;
export type Tag = TagItem;

/** `GET /api/tags`: one page by name; `count` = tags matching the search in the company. */
export const TagsPage = z.object({ tags: z.array(Tag), count: z.number().int(), hasMore: z.boolean() });
export type TagsPage = z.infer<typeof TagsPage>;

/** `GET /api/tags/list`: every tag of the company, by name. */
export const TagList = z.array(Tag);

/** `GET /api/tags/kanban`: the tags that are kanban lanes (answered under `lista`, as the old clients read it). */
export const KanbanTags = z.object({ lista: z.array(Tag) });
export type KanbanTags = z.infer<typeof KanbanTags>;

/** A ticket's tag as ticket rows carry it (`tags: [{id, name, color}]`). */
export const TicketTagRef = z.object({ id: z.number().int(), name: z.string(), color: z.string() });

/** `DELETE /api/tags/{id}`. */
export const TagDeleted = z.object({ message: z.string() });

/** `company-{id}-tag` frames. */
export const TagEvent = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), tag: Tag }),
  z.object({ action: z.literal("update"), tag: Tag }),
  z.object({ action: z.literal("delete"), tagId: z.number().int() }),
]);
export type TagEvent = z.infer<typeof TagEvent>;
