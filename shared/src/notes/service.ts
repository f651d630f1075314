/**
 * Ticket notes (docs/product/tickets.md#notes; a note is required, at least 2 characters).
 * Stored in the ticket's partition at `NOTE#<createdAt>#<id>` with a ref `keys.noteRef(cid, id)`
 * (ticketId + SK) written in the same transaction, so `DELETE /ticket-notes/{id}` finds it by id.
 */
import { can } from "../access/permissions.ts";
import { nowIso } from "../common.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { getAccessibleTicket, type TicketActor } from "../tickets/service.ts";
import { deleteNoteItems, getNote, listTicketNotes, putNote } from "./repository.ts";
import { NoteItem } from "./schema.ts";

import { CreateNoteBody } from "./contract.ts";
export { CreateNoteBody };

/**
 * Adds a note to a ticket the caller may see (403/404 otherwise), signed with the caller's name. `contactId`, when
 * given, must be the ticket's contact (400). Returns the note.
 */
export async function createNote(actor: TicketActor, input: CreateNoteBody): Promise<NoteItem> {
  const ticket = await getAccessibleTicket(actor, input.ticketId);
  if (input.contactId != null && input.contactId !== ticket.contactId) {
    throw new AppError("ERR_VALIDATION", 400, { fields: [{ path: "contactId", message: "Invalid" }] });
  }
  const cid = actor.companyId;
  const note = NoteItem.parse({
    id: await nextId(cid, "note"),
    companyId: cid,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    note: input.note,
    userId: actor.userId,
    user: { name: actor.name },
    createdAt: nowIso(),
  });
  await putNote(note);
  return note;
}

/** Deletes a note: its author or an admin, on a ticket the caller may see. 404 `ERR_NO_NOTE_FOUND`, 403 `ERR_NO_PERMISSION`. */
export async function deleteNote(actor: TicketActor, noteId: number): Promise<void> {
  const note = await getNote(actor.companyId, noteId);
  if (!note) throw new AppError("ERR_NO_NOTE_FOUND", 404);
  await getAccessibleTicket(actor, note.ticketId);
  if (note.userId !== actor.userId && !can(actor, "notes:deleteAny")) throw new AppError("ERR_NO_PERMISSION", 403);
  await deleteNoteItems(note);
}

/** `GET /api/ticket-notes/list?ticketId&contactId`: the ticket's notes, newest first (403/404 as the ticket). */
export async function listNotes(actor: TicketActor, input: { ticketId: number; contactId?: number }): Promise<NoteItem[]> {
  const ticket = await getAccessibleTicket(actor, input.ticketId);
  if (input.contactId != null && input.contactId !== ticket.contactId) return [];
  return listTicketNotes(actor.companyId, ticket.id);
}
