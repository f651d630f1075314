/**
 * Tags area (administration.md §7 "Tags and kanban"; attendance.md §7 `GET /tags/list`, `POST /tags/sync`; issue 7 §7).
 * Thin: parse with the tag schemas, call the tags service. Who may do what is decided in the service.
 */
import {
  CreateTagBody,
  ListTagsQuery,
  SimpleListTagsQuery,
  SyncTagsBody,
  TagIdParams,
  TicketParams,
  TicketTagParams,
  UpdateTagBody,
} from "@atende/shared/tags/schema";
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
import { areaHandler, reply, route } from "./core/http.ts";

export const handler = areaHandler("tags", {
  "GET /api/tags": route({
    query: ListTagsQuery,
    handler: async (ctx) => listTagsPage(ctx.auth, ctx.query),
  }),
  "GET /api/tags/list": route({
    query: SimpleListTagsQuery,
    handler: async (ctx) => listAllTags(ctx.auth, ctx.query),
  }),
  "GET /api/tags/kanban": route({
    handler: async (ctx) => kanbanTags(ctx.auth),
  }),
  "GET /api/tags/{id}": route({
    params: TagIdParams,
    handler: async (ctx) => showTag(ctx.auth, ctx.params.id),
  }),
  "POST /api/tags": route({
    body: CreateTagBody,
    handler: async (ctx) => createTag(ctx.auth, ctx.body),
  }),
  "PUT /api/tags/{id}": route({
    params: TagIdParams,
    body: UpdateTagBody,
    handler: async (ctx) => updateTag(ctx.auth, ctx.params.id, ctx.body),
  }),
  "DELETE /api/tags/{id}": route({
    params: TagIdParams,
    handler: async (ctx) => {
      await deleteTag(ctx.auth, ctx.params.id);
      return reply(200, { message: "Tag deleted" });
    },
  }),
  "POST /api/tags/sync": route({
    body: SyncTagsBody,
    handler: async (ctx) => syncTicketTags(ctx.auth, ctx.body),
  }),
  "PUT /api/ticket-tags/{ticketId}/{tagId}": route({
    params: TicketTagParams,
    handler: async (ctx) => addTicketTag(ctx.auth, ctx.params.ticketId, ctx.params.tagId),
  }),
  "DELETE /api/ticket-tags/{ticketId}": route({
    params: TicketParams,
    handler: async (ctx) => removeTicketTags(ctx.auth, ctx.params.ticketId),
  }),
});
