/**
 * Connections operations (the Connections page; docs/product/connections.md). `session=0` (and `companyId`)
 * in the list query are accepted for compatibility and ignored: the company is the caller's.
 */
import { z } from "zod";
import { ColoredRef, defineRoutes, IdParams, MessageReply } from "../contract.ts";
import { CreateWhatsappBody, UpdateWhatsappBody, WhatsappItem } from "./schema.ts";

/** A connection as the API shows it (`token` and `qrcode` blank for non-admins), with its queues when listed. */
export const WhatsappView = WhatsappItem.omit({ shard: true, tokenSealed: true, tokenHash: true }).extend({ token: z.string(), queues: z.array(ColoredRef).optional() });

const ListQuery = z.object({ session: z.string().optional(), companyId: z.string().optional() }).passthrough();

export const whatsappRoutes = defineRoutes("whatsapp", {
  "GET /api/whatsapp": { auth: "user", query: ListQuery, response: z.array(WhatsappView) },
  "POST /api/whatsapp": { auth: "admin", body: CreateWhatsappBody, response: WhatsappView },
  "GET /api/whatsapp/{id}": { auth: "user", params: IdParams, query: ListQuery, response: WhatsappView },
  "PUT /api/whatsapp/{id}": { auth: "admin", params: IdParams, body: UpdateWhatsappBody, response: WhatsappView },
  "DELETE /api/whatsapp/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  /** A new API token for the connection (the old one stops working at once); the answer shows it. */
  "POST /api/whatsapp/{id}/token": { auth: "admin", permission: "secrets:view", params: IdParams, response: WhatsappView },
  "POST /api/whatsapp-restart": { auth: "admin", response: z.object({ restarted: z.number().int() }) },
  "POST /api/whatsappsession/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  "PUT /api/whatsappsession/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  "DELETE /api/whatsappsession/{id}": { auth: "admin", params: IdParams, response: MessageReply },
});

/** `company-{id}-whatsapp` frames: the connection as an admin reads it (token blank), or the deleted one's id. */
export const WhatsappFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("update"), whatsapp: WhatsappView }),
  z.object({ action: z.literal("delete"), whatsappId: z.number().int() }),
]);
export type WhatsappFrame = z.infer<typeof WhatsappFrame>;

/** `company-{id}-whatsappSession` frames: the connection after a session change (status, QR code, retries, number). */
export const WhatsappSessionFrame = z.object({ action: z.literal("update"), session: WhatsappView });
export type WhatsappSessionFrame = z.infer<typeof WhatsappSessionFrame>;
