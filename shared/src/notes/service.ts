/**
 * Ticket notes (attendance.md §3 Ticket note, §4 "Ticket notes", §5 "Ticket note: required, minimum 2 characters";
 * issue 4 §6). Stored in the ticket's partition at `NOTE#<createdAt>#<id>` with a ref `keys.noteRef(cid, id)`
 * (ticketId + SK) written in the same transaction, so `DELETE /ticket-notes/{id}` finds it by id.
 */
import { can } from "../access/permissions.ts";
import { GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { nowIso } from "../common.ts";
import { ddb, tableName } from "../db/client.ts";
import { nextId } from "../db/counters.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { getAccessibleTicket, type TicketActor } from "../tickets/service.ts";
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
  const key = keys.note(cid, ticket.id, note.createdAt, note.id);
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: { ...note, ...key, _type: "note" } } },
        { Put: { TableName: tableName(), Item: { ...keys.noteRef(cid, note.id), _type: "noteRef", ticketId: ticket.id, noteSK: key.SK } } },
      ],
    }),
  );
  return note;
}

/** Deletes a note: its author or an admin, on a ticket the caller may see. 404 `ERR_NO_NOTE_FOUND`, 403 `ERR_NO_PERMISSION`. */
export async function deleteNote(actor: TicketActor, noteId: number): Promise<void> {
  const cid = actor.companyId;
  const ref = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.noteRef(cid, noteId), ConsistentRead: true }));
  if (!ref.Item) throw new AppError("ERR_NO_NOTE_FOUND", 404);
  const ticketId = Number(ref.Item.ticketId);
  const noteKey = { PK: keys.ticketPartition(cid, ticketId), SK: String(ref.Item.noteSK) };
  const got = await ddb().send(new GetCommand({ TableName: tableName(), Key: noteKey, ConsistentRead: true }));
  if (!got.Item) throw new AppError("ERR_NO_NOTE_FOUND", 404);
  const note = NoteItem.parse(got.Item);
  await getAccessibleTicket(actor, ticketId);
  if (note.userId !== actor.userId && !can(actor, "notes:deleteAny")) throw new AppError("ERR_NO_PERMISSION", 403);
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: noteKey } },
        { Delete: { TableName: tableName(), Key: keys.noteRef(cid, noteId) } },
      ],
    }),
  );
}

/** `GET /api/ticket-notes/list?ticketId&contactId`: the ticket's notes, newest first (403/404 as the ticket). */
export async function listNotes(actor: TicketActor, input: { ticketId: number; contactId?: number }): Promise<NoteItem[]> {
  const ticket = await getAccessibleTicket(actor, input.ticketId);
  if (input.contactId != null && input.contactId !== ticket.contactId) return [];
  const out: NoteItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :n)",
        ExpressionAttributeValues: { ":pk": keys.ticketPartition(actor.companyId, ticket.id), ":n": "NOTE#" },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    for (const it of page.Items ?? []) out.push(NoteItem.parse(it));
    start = page.LastEvaluatedKey;
  } while (start && out.length < 500);
  return out;
}
