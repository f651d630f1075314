/** Ticket note (note required, minimum 2 characters; docs/product/tickets.md#notes). */
import { z } from "zod";

export const NoteItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  ticketId: z.number().int(),
  contactId: z.number().int(),
  note: z.string(),
  userId: z.number().int(),
  user: z.object({ name: z.string() }),
  createdAt: z.string(),
});
export type NoteItem = z.infer<typeof NoteItem>;
