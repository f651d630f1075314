/** Tags as the contract describes them (`shared/src/tags/contract.ts`): the record, a page, the form body. */
import type { BodyOf, ResponseOf } from "../../api/operations.ts";
import type { Ticket } from "../tickets/types.ts";

/** A tag: `kanban` is 1 when the tag is a lane of the kanban board. */
export type Tag = ResponseOf<"GET /api/tags/{id}">;
/** `GET /api/tags` answer. */
export type TagsPage = ResponseOf<"GET /api/tags">;
/** POST /api/tags body (PUT /api/tags/{id} takes the same fields). */
export type TagForm = BodyOf<"POST /api/tags">;
/** A tag as a ticket carries it. */
export type TicketTag = Ticket["tags"][number];
