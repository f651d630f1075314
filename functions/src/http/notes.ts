/**
 * Ticket notes area (docs/product/tickets.md#notes). Thin: call the notes service.
 * Contract: `shared/src/notes/contract.ts`.
 */
import { createNote, deleteNote, listNotes } from "@atende/shared/notes/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("notes", {
  "POST /api/ticket-notes": async (ctx) => createNote(ctx.auth, ctx.body),
  "DELETE /api/ticket-notes/{id}": answering("Observação excluída com sucesso!", (ctx) => deleteNote(ctx.auth, ctx.params.id)),
  "GET /api/ticket-notes/list": async (ctx) => listNotes(ctx.auth, ctx.query),
});
