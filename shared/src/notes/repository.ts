/**
 * DynamoDB access for ticket notes (docs/architecture.md#3-the-table): a note lives in its ticket's partition at
 * `NOTE#<createdAt>#<id>`, with a ref `keys.noteRef(cid, id)` (ticketId + SK) written in the same transaction so a
 * note is found by id alone. Items are parsed with {@link NoteItem} on read.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName, transactWrite } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { NoteItem } from "./schema.ts";

/** At most this many notes are listed for one ticket (newest first). */
export const MAX_TICKET_NOTES = 500;

/** Writes a note and its ref in one transaction. */
export async function putNote(note: NoteItem): Promise<void> {
  const key = keys.note(note.companyId, note.ticketId, note.createdAt, note.id);
  await transactWrite([
        { Put: { TableName: tableName(), Item: { ...note, ...key, _type: "note" } } },
        { Put: { TableName: tableName(), Item: { ...keys.noteRef(note.companyId, note.id), _type: "noteRef", ticketId: note.ticketId, noteSK: key.SK } } },
      ]);
}

/** Reads a note of the company by id (through its ref), or `undefined` when the ref or the note is missing. */
export async function getNote(companyId: number, noteId: number): Promise<NoteItem | undefined> {
  const ref = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.noteRef(companyId, noteId), ConsistentRead: true }));
  if (!ref.Item) return undefined;
  const noteKey = { PK: keys.ticketPartition(companyId, Number(ref.Item.ticketId)), SK: String(ref.Item.noteSK) };
  const got = await ddb().send(new GetCommand({ TableName: tableName(), Key: noteKey, ConsistentRead: true }));
  return got.Item ? NoteItem.parse(got.Item) : undefined;
}

/** Deletes a note and its ref in one transaction. */
export async function deleteNoteItems(note: NoteItem): Promise<void> {
  await transactWrite([
        { Delete: { TableName: tableName(), Key: keys.note(note.companyId, note.ticketId, note.createdAt, note.id) } },
        { Delete: { TableName: tableName(), Key: keys.noteRef(note.companyId, note.id) } },
      ]);
}

/** The ticket's notes, newest first, at most {@link MAX_TICKET_NOTES}. */
export async function listTicketNotes(companyId: number, ticketId: number): Promise<NoteItem[]> {
  const items = await queryAllByPrefix(keys.ticketPartition(companyId, ticketId), keys.prefix.note, { ScanIndexForward: false, max: MAX_TICKET_NOTES });
  return items.map((it) => NoteItem.parse(it));
}
