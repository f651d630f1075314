/**
 * Tags area (docs/product/tags.md), `GET /tags/list` and `POST /tags/sync` included.
 * Thin: call the tags service; who may do what is decided there. Contract: `shared/src/tags/contract.ts`.
 */
import {
  addTicketTag,
  createTag,
  deleteTag,
  kanbanTags,
  listAllTags,
  listTagsPage,
  removeTicketTags,
  showTag,
  syncTicketTags,
  updateTag,
} from "@atende/shared/tags/service";
import { areaHandler, started } from "./core/http.ts";

export const handler = areaHandler("tags", {
  "GET /api/tags": async (ctx) => listTagsPage(ctx.auth, ctx.query),
  "GET /api/tags/list": async (ctx) => listAllTags(ctx.auth, ctx.query),
  "GET /api/tags/kanban": async (ctx) => kanbanTags(ctx.auth),
  "GET /api/tags/{id}": async (ctx) => showTag(ctx.auth, ctx.params.id),
  "POST /api/tags": async (ctx) => createTag(ctx.auth, ctx.body),
  "PUT /api/tags/{id}": async (ctx) => updateTag(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/tags/{id}": async (ctx) => started("Tag deleted", await deleteTag(ctx.auth, ctx.params.id)),
  "POST /api/tags/sync": async (ctx) => syncTicketTags(ctx.auth, ctx.body),
  "PUT /api/ticket-tags/{ticketId}/{tagId}": async (ctx) => addTicketTag(ctx.auth, ctx.params.ticketId, ctx.params.tagId),
  "DELETE /api/ticket-tags/{ticketId}": async (ctx) => removeTicketTags(ctx.auth, ctx.params.ticketId),
});
