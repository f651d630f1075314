/**
 * WhatsApp connection entity (docs/product/connections.md).
 */
import { z } from "zod";
import { zId } from "../common.ts";

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
  /**
   * Minutes a resolved ticket waits for the customer's 1-3 rating before it closes without one (docs/product/ratings.md;
   * default 1440 = 24 hours, the product's auto-close hours).
   */
  ratingWaitMinutes: z.number().int().default(1440),
  transferQueueId: z.number().int().nullable().default(null),
  promptId: z.number().int().nullable().default(null),
  integrationId: z.number().int().nullable().default(null),
  /** Session shard (0..SESSION_SHARDS-1) this connection hashes to. */
  shard: z.number().int().default(0),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WhatsappItem = z.infer<typeof WhatsappItem>;

/** Fields an admin may set on a connection (name 2-50; docs/product/connections.md#fields). */
const editable = {
  name: z.string().trim().min(2, "Too Short!").max(50, "Too Long!"),
  isDefault: z.boolean(),
  queueIds: z.array(zId).max(200),
  greetingMessage: z.string().max(5000),
  complationMessage: z.string().max(5000),
  outOfHoursMessage: z.string().max(5000),
  ratingMessage: z.string().max(5000),
  /** Public messages API bearer token; unique across all companies; "" = none. */
  token: z.string().trim().max(200),
  provider: z.string().trim().max(30),
  expiresInactiveMessage: z.string().max(5000),
  expiresTicket: z.coerce.number().int().min(0).max(525600),
  timeToTransfer: z.coerce.number().int().min(0).max(525600),
  timeUseBotQueues: z.coerce.number().int().min(0).max(525600),
  maxUseBotQueues: z.coerce.number().int().min(0).max(1000),
  ratingWaitMinutes: z.coerce.number().int().min(1).max(525600),
  transferQueueId: zId.nullable(),
  promptId: zId.nullable(),
  integrationId: zId.nullable(),
};

/** `POST /api/whatsapp` body: `name` required, every other field optional with the entity's defaults. */
export const CreateWhatsappBody = z.object({
  ...editable,
  isDefault: editable.isDefault.optional(),
  queueIds: editable.queueIds.optional(),
  greetingMessage: editable.greetingMessage.optional(),
  complationMessage: editable.complationMessage.optional(),
  outOfHoursMessage: editable.outOfHoursMessage.optional(),
  ratingMessage: editable.ratingMessage.optional(),
  token: editable.token.optional(),
  provider: editable.provider.optional(),
  expiresInactiveMessage: editable.expiresInactiveMessage.optional(),
  expiresTicket: editable.expiresTicket.optional(),
  timeToTransfer: editable.timeToTransfer.optional(),
  timeUseBotQueues: editable.timeUseBotQueues.optional(),
  maxUseBotQueues: editable.maxUseBotQueues.optional(),
  ratingWaitMinutes: editable.ratingWaitMinutes.optional(),
  transferQueueId: editable.transferQueueId.optional(),
  promptId: editable.promptId.optional(),
  integrationId: editable.integrationId.optional(),
});
export type CreateWhatsappBody = z.infer<typeof CreateWhatsappBody>;

/** `PUT /api/whatsapp/{id}` body: any subset of the editable fields. */
export const UpdateWhatsappBody = z.object(editable).partial();
export type UpdateWhatsappBody = z.infer<typeof UpdateWhatsappBody>;

/** Session fields the runner changes as a session lives (docs/product/connections.md#session-status). */
export const SessionStatePatch = z.object({
  status: WhatsappStatus.optional(),
  /** QR string to render ("" when none). */
  qrcode: z.string().optional(),
  retries: z.number().int().min(0).optional(),
  /** Paired phone, digits only (E.164 without +). */
  number: z.string().regex(/^\d*$/).optional(),
});
export type SessionStatePatch = z.infer<typeof SessionStatePatch>;

/**
 * What the API and realtime events show: the item without internal keys; `token` is blanked for non-admins.
 * `queues` lists the linked queues (id, name, color) when the caller asked for them.
 */
export type WhatsappView = Omit<WhatsappItem, "shard"> & { queues?: { id: number; name: string; color: string }[] };
