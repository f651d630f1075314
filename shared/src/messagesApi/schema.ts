/**
 * The public messages API's shapes (docs/product/messages-api.md): the send body, its answer, the delivery status,
 * and the stored first answer of a send with an `Idempotency-Key`.
 */
import { z } from "zod";

/** `POST /api/messages/send` JSON body: `number` in digits (country code, area code, number; no mask) and `body`. */
export const ApiSendBody = z.object({
  number: z.string().trim().max(40),
  body: z.string().max(4096).default(""),
});
export type ApiSendBody = z.infer<typeof ApiSendBody>;

/** A multipart send's text fields (`number`, `body` or one `body` per file): read from the form, parsed here. */
export const ApiSendForm = z.object({ number: z.string().trim().min(1).max(40) });

/** A message's delivery status by its `ack`: -1 failed, 0 queued, 1-2 sent, 3 delivered, 4 read, 5 played. */
export const ApiMessageStatus = z.enum(["failed", "queued", "sent", "delivered", "read", "played"]);
export type ApiMessageStatus = z.infer<typeof ApiMessageStatus>;

/** One message of an answer: its id, `ack`, the status the ack means and the reason of a failure. */
export const ApiMessage = z.object({
  id: z.string(),
  ack: z.number().int(),
  status: ApiMessageStatus,
  mediaType: z.string(),
  sendError: z.string().nullable(),
});
export type ApiMessage = z.infer<typeof ApiMessage>;

/** The send's answer: the first message's id and status, every message sent (one per file), the ticket and contact. */
export const ApiSendAnswer = z.object({
  message: z.literal("Mensagem enviada"),
  id: z.string(),
  status: ApiMessageStatus,
  ack: z.number().int(),
  ticketId: z.number().int(),
  contactId: z.number().int(),
  messages: z.array(ApiMessage),
});
export type ApiSendAnswer = z.infer<typeof ApiSendAnswer>;

/** `GET /api/messages/send/{id}` path. */
export const ApiStatusParams = z.object({ id: z.string().min(1).max(128) });

/** The stored first answer of an idempotent send (`keys.apiIdempotency`). `answer` is absent while it runs. */
export const ApiIdempotencyItem = z.object({
  companyId: z.number().int(),
  whatsappId: z.number().int(),
  key: z.string(),
  /** SHA-256 of the request (number, body, files): the same key with another request is refused. */
  fingerprint: z.string(),
  /** Message ids reserved for the send, one per message: a retry after a crash sends these, never new ones. */
  messageIds: z.array(z.string()),
  answer: ApiSendAnswer.optional(),
  expiresAt: z.number().int(),
});
export type ApiIdempotencyItem = z.infer<typeof ApiIdempotencyItem>;
