/**
 * Tags operations (docs/product/tags.md), `GET /tags/list` and `POST /tags/sync` included.
 * Every route is open to any logged-in user; the service decides who may do what (the kanban switch
 * needs the `tags:kanban` permission). Ticket-tag operations answer the ticket as the list shows it.
 */
import { JobStarted } from "../jobs/schema.ts";
import { defineRoutes } from "../contract.ts";
import { TicketView } from "../tickets/contract.ts";
import {
  CreateTagBody,
  KanbanTags,
  ListTagsQuery,
  SimpleListTagsQuery,
  SyncTagsBody,
  Tag,
  TagIdParams,
  TagList,
  TagsPage,
  TicketParams,
  TicketTagParams,
  UpdateTagBody,
} from "./schema.ts";

export const tagsRoutes = defineRoutes("tags", {
  "GET /api/tags": { auth: "user", query: ListTagsQuery, response: TagsPage },
  "GET /api/tags/list": { auth: "user", query: SimpleListTagsQuery, response: TagList },
  "GET /api/tags/kanban": { auth: "user", response: KanbanTags },
  "GET /api/tags/{id}": { auth: "user", params: TagIdParams, response: Tag },
  "POST /api/tags": { auth: "user", body: CreateTagBody, response: Tag },
  "PUT /api/tags/{id}": { auth: "user", params: TagIdParams, body: UpdateTagBody, response: Tag },
  "DELETE /api/tags/{id}": { auth: "user", params: TagIdParams, response: JobStarted },
  "POST /api/tags/sync": { auth: "user", body: SyncTagsBody, response: TicketView },
  "PUT /api/ticket-tags/{ticketId}/{tagId}": { auth: "user", params: TicketTagParams, response: TicketView },
  "DELETE /api/ticket-tags/{ticketId}": { auth: "user", params: TicketParams, response: TicketView },
});
