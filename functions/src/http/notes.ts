/**
 * Ticket notes area (attendance.md §3 Ticket note, §4, §5; issue 4 §6). Thin: parse, call the notes service.
 */
import { z } from "zod";
import { zId } from "@atende/shared/common";
import { CreateNoteBody, createNote, deleteNote, listNotes } from "@atende/shared/notes/service";
import { areaHandler, reply, route } from "./core/http.ts";

export const handler = areaHandler("notes", {
  "POST /api/ticket-notes": route({
    body: CreateNoteBody,
    handler: async (ctx) => reply(200, await createNote(ctx.auth, ctx.body)),
  }),
  "DELETE /api/ticket-notes/{id}": route({
    params: z.object({ id: zId }),
    handler: async (ctx) => {
      await deleteNote(ctx.auth, ctx.params.id);
      return reply(200, { message: "Observação excluída com sucesso!" });
    },
  }),
  "GET /api/ticket-notes/list": route({
    query: z.object({ ticketId: zId, contactId: zId.optional() }),
    handler: async (ctx) => listNotes(ctx.auth, ctx.query),
  }),
});
