/**
 * Ticket entity (docs/product/tickets.md).
 */
import { z } from "zod";
import { zId } from "../common.ts";
import { ReplyWait } from "../contacts/schema.ts";

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
  /**
   * Messages stored on this ticket: from the customer (`messagesIn`) and from our side (`messagesOut`: agents, automatic,
   * and the phone). Added by the message's own write, so a message counts exactly once (a redelivery writes nothing).
   */
  messagesIn: z.number().int().default(0),
  messagesOut: z.number().int().default(0),
  isGroup: z.boolean().default(false),
  /** The chatbot awaits the customer's answer to a menu (queue menu or option tree; automation/chatbot.ts). */
  chatbot: z.boolean().default(false),
  /** Chatbot: the option-tree node the customer is at (null = the queue's own menu). */
  queueOptionId: z.number().int().nullable().default(null),
  /** Chatbot: menus re-sent after invalid answers since the last valid one (limit: the connection's maxUseBotQueues). */
  amountUsedBotQueues: z.number().int().default(0),
  /** Chatbot: ISO instant until which the bot answers nothing on this ticket (null = not silenced). */
  botSilentUntil: z.string().nullable().default(null),
  /** A campaign's shipping waiting for the customer's reply on this open ticket (docs/product/campaigns.md#replies). */
  campaignWait: ReplyWait.nullable().optional(),
  presence: z.string().default(""),
  tagIds: z.array(z.number().int()).default([]),
  useIntegration: z.boolean().default(false),
  integrationId: z.number().int().nullable().default(null),
  promptId: z.number().int().nullable().default(null),
  /**
   * Set (ISO time the rating prompt was sent) while the ticket awaits the customer's 1-3 rating after a resolve with
   * setting `userRating` enabled (docs/product/ratings.md): the ticket stays open and listed, marked as awaiting a rating; null otherwise.
   */
  ratingAt: z.string().nullable().default(null),
  /**
   * The current service cycle (`cycles.ts`, docs/product/dashboard.md#service-cycles): when it was queued, accepted
   * and by whom (null: not accepted yet). Kept by every create and transition write.
   */
  queuedAt: z.string().nullable().default(null),
  acceptedAt: z.string().nullable().default(null),
  acceptedBy: z.number().int().nullable().default(null),
  /**
   * The state the ticket is counted in by the tab counts (`tally.ts`, docs/product/tickets.md#tab-counts): written
   * with every create and transition; absent on a ticket stored before the counts existed.
   */
  tally: z.string().optional(),
  /** Optimistic-lock counter: every agent-side update is conditioned on it and increments it (no lost updates). */
  version: z.number().int().default(0),
  /** Revision: +1 on every write of the item, whatever it changes (`revision.ts`); confirms an in-memory copy. */
  rev: z.number().int().default(0),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TicketItem = z.infer<typeof TicketItem>;

/**
 * What the API returns: the item plus its nested objects (denormalized or joined on read):
 * contact{id,name,number,profilePicUrl,email,extraInfo}, queue{id,name,color}|null, whatsapp{id,name,status},
 * user{id,name}|null, tags[{id,name,color}].
 */
export type TicketView = Omit<TicketItem, "tally"> & {
  contact: { id: number; name: string; number: string; profilePicUrl: string; email: string; extraInfo: unknown[] };
  queue: { id: number; name: string; color: string } | null;
  whatsapp: { id: number; name: string; status: string } | null;
  user: { id: number; name: string } | null;
  tags: { id: number; name: string; color: string }[];
  /** Search results only: for a ticket found by a message word, the text around that word in a message holding it. */
  searchSnippet?: string;
};

/** `PUT /api/tickets/{id}` body: the transition is inferred from status/userId/queueId/whatsappId. */
export const UpdateTicketBody = z.object({
  status: TicketStatus.optional(),
  userId: zId.nullable().optional(),
  queueId: zId.nullable().optional(),
  whatsappId: zId.optional(),
  /** Close from the list: no completion message. The queue is kept on every close. */
  justClose: z.boolean().optional(),
  useIntegration: z.boolean().optional(),
  promptId: zId.nullable().optional(),
  integrationId: zId.nullable().optional(),
  chatbot: z.boolean().optional(),
});
export type UpdateTicketBody = z.infer<typeof UpdateTicketBody>;

/** `POST /api/tickets` body. */
export const CreateTicketBody = z.object({
  contactId: zId,
  queueId: zId.nullable().optional(),
  whatsappId: zId.nullable().optional(),
  userId: zId.nullable().optional(),
  status: TicketStatus.optional(),
});
export type CreateTicketBody = z.infer<typeof CreateTicketBody>;
