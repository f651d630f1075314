/**
 * WhatsApp connection entity (attendance.md §3 Whatsapp connection, §4 Connection status; issue 3 §1).
 */
import { z } from "zod";

export const WhatsappStatus = z.enum(["CONNECTED", "qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"]);
export type WhatsappStatus = z.infer<typeof WhatsappStatus>;

export const WhatsappItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  /** Phone number of the paired device, digits only with country code (E.164 without +). */
  number: z.string().default(""),
  status: WhatsappStatus.default("DISCONNECTED"),
  isDefault: z.boolean().default(false),
  qrcode: z.string().default(""),
  retries: z.number().int().default(0),
  queueIds: z.array(z.number().int()).default([]),
  greetingMessage: z.string().default(""),
  complationMessage: z.string().default(""),
  outOfHoursMessage: z.string().default(""),
  ratingMessage: z.string().default(""),
  token: z.string().default(""),
  provider: z.string().default("beta"),
  expiresInactiveMessage: z.string().default(""),
  /** Minutes to close open chats; 0 = never. */
  expiresTicket: z.number().int().default(0),
  /** Minutes to redirect to `transferQueueId`; 0 = never. */
  timeToTransfer: z.number().int().default(0),
  timeUseBotQueues: z.number().int().default(0),
  maxUseBotQueues: z.number().int().default(3),
  transferQueueId: z.number().int().nullable().default(null),
  promptId: z.number().int().nullable().default(null),
  integrationId: z.number().int().nullable().default(null),
  /** Session shard (0..SESSION_SHARDS-1) this connection hashes to. */
  shard: z.number().int().default(0),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WhatsappItem = z.infer<typeof WhatsappItem>;
