/**
 * Ticket entity (attendance.md §3 Ticket, §4 transitions; issue 3 §4).
 */
import { z } from "zod";

export const TicketStatus = z.enum(["open", "pending", "closed"]);
export type TicketStatus = z.infer<typeof TicketStatus>;

export const TicketItem = z.object({
  id: z.number().int(),
  uuid: z.string(),
  companyId: z.number().int(),
  status: TicketStatus,
  contactId: z.number().int(),
  whatsappId: z.number().int(),
  queueId: z.number().int().nullable().default(null),
  userId: z.number().int().nullable().default(null),
  lastMessage: z.string().default(""),
  unreadMessages: z.number().int().default(0),
  isGroup: z.boolean().default(false),
  chatbot: z.boolean().default(false),
  presence: z.string().default(""),
  tagIds: z.array(z.number().int()).default([]),
  useIntegration: z.boolean().default(false),
  integrationId: z.number().int().nullable().default(null),
  promptId: z.number().int().nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TicketItem = z.infer<typeof TicketItem>;

/**
 * What the API returns: the item plus the spec's nested objects (denormalized or joined on read):
 * contact{id,name,number,profilePicUrl,email,extraInfo}, queue{id,name,color}|null, whatsapp{id,name,status},
 * user{id,name}|null, tags[{id,name,color}].
 */
export type TicketView = TicketItem & {
  contact: { id: number; name: string; number: string; profilePicUrl: string; email: string; extraInfo: unknown[] };
  queue: { id: number; name: string; color: string } | null;
  whatsapp: { id: number; name: string; status: string } | null;
  user: { id: number; name: string } | null;
  tags: { id: number; name: string; color: string }[];
};
