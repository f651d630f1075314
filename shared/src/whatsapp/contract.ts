/**
 * Connections operations (the Connections page; docs/product/connections.md). `session=0` (and `companyId`)
 * in the list query are accepted for compatibility and ignored: the company is the caller's.
 */
import { z } from "zod";
import { ColoredRef, defineRoutes, IdParams, MessageReply } from "../contract.ts";
import { CreateWhatsappBody, UpdateWhatsappBody, WhatsappItem } from "./schema.ts";

/** A connection as the API shows it (`token` blank for non-admins), with its queues when listed. */
export const WhatsappView = WhatsappItem.omit({ shard: true }).extend({ queues: z.array(ColoredRef).optional() });

const ListQuery = z.object({ session: z.string().optional(), companyId: z.string().optional() }).passthrough();

export const whatsappRoutes = defineRoutes("whatsapp", {
  "GET /api/whatsapp": { auth: "user", query: ListQuery, response: z.array(WhatsappView) },
  "POST /api/whatsapp": { auth: "admin", body: CreateWhatsappBody, response: WhatsappView },
  "GET /api/whatsapp/{id}": { auth: "user", params: IdParams, query: ListQuery, response: WhatsappView },
  "PUT /api/whatsapp/{id}": { auth: "admin", params: IdParams, body: UpdateWhatsappBody, response: WhatsappView },
  "DELETE /api/whatsapp/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  "POST /api/whatsapp-restart": { auth: "admin", response: z.object({ restarted: z.number().int() }) },
  "POST /api/whatsappsession/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  "PUT /api/whatsappsession/{id}": { auth: "admin", params: IdParams, response: MessageReply },
  "DELETE /api/whatsappsession/{id}": { auth: "admin", params: IdParams, response: MessageReply },
});
