/** Ticket notes operations (docs/product/tickets.md#notes). */
import { z } from "zod";
import { zId } from "../common.ts";
import { defineRoutes, IdParams, MessageReply } from "../contract.ts";
import { NoteItem } from "./schema.ts";

/** `POST /api/ticket-notes` body. */
export const CreateNoteBody = z.object({
  note: z.string().trim().min(2, "Too Short!").max(5000, "Too Long!"),
  ticketId: zId,
  contactId: zId.optional(),
});
export type CreateNoteBody = z.infer<typeof CreateNoteBody>;

export const notesRoutes = defineRoutes("notes", {
  "POST /api/ticket-notes": { auth: "user", body: CreateNoteBody, response: NoteItem },
  "DELETE /api/ticket-notes/{id}": { auth: "user", params: IdParams, response: MessageReply },
  "GET /api/ticket-notes/list": { auth: "user", query: z.object({ ticketId: zId, contactId: zId.optional() }), response: z.array(NoteItem) },
});
