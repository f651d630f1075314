/**
 * Shapes the tickets screen reads from the API (ticket, message, ticket note). They are the backend's
 * own view types (`shared/src/{tickets,messages,notes}/schema.ts`), imported as types only.
 */
import type { ResponseOf } from "../../api/operations.ts";
import type { MessageView } from "@atende/shared/messages/schema";
import type { NoteItem } from "@atende/shared/notes/schema";
import type { TicketStatus, TicketView } from "@atende/shared/tickets/schema";

export type Ticket = TicketView;
export type Message = MessageView;
export type Note = NoteItem;
export type { TicketStatus };

/** `GET /api/tickets` answer. */
export type TicketsPage = ResponseOf<"GET /api/tickets">;

/** `GET /api/messages/{ticketId}` answer: one page, oldest → newest; page 1 is the newest. */
export type MessagesPage = ResponseOf<"GET /api/messages/{ticketId}">;

/** The list a tab shows: the `GET /api/tickets` filters plus the client-side group flag. */
export interface TicketListParams {
  status?: TicketStatus;
  showAll?: boolean;
  queueIds?: number[];
  searchParam?: string;
  users?: number[];
  /** Search tab: only tickets carrying every one of these tag ids. */
  tags?: number[];
  /** Group tab: only group tickets; open tab: only non-group tickets; undefined: both (search, closed). */
  isGroup?: boolean;
}
