/**
 * Messages area (attendance.md §2 Conversation view, §3 Message, §6, §7 calls; issue 3 §4, issue 4 §6 forward).
 * Thin: parse, call one messages service. `POST /api/messages/{ticketId}` takes JSON `{body, quotedMsg?, signMessage?}`
 * or multipart `medias` (+ `body` captions) — the raw body is parsed here with `@middy/http-multipart-body-parser`.
 */
import httpMultipartBodyParser from "@middy/http-multipart-body-parser";
import { z } from "zod";
import { zId, zPageNumber } from "@atende/shared/common";
import { AppError } from "@atende/shared/errors";
import { SendMessageBody } from "@atende/shared/messages/schema";
import {
  deleteMessage,
  editMessage,
  forwardMessage,
  listTicketMessages,
  reactToMessage,
  sendMediaMessages,
  sendTicketMessage,
  type UploadedFile,
} from "@atende/shared/messages/service";
import { areaHandler, route, type HttpEvent } from "./core/http.ts";

const TicketParams = z.object({ ticketId: zId });
const MessageIdParams = z.object({ id: z.string().min(1).max(128) });

/** Largest upload accepted per file (bytes). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

type Attachment = { filename: string; mimetype: string; content: Buffer; truncated?: boolean };

/** Parses a multipart body into files (`medias`) and captions (`body`). 400 on malformed input or oversize files. */
async function parseMultipart(event: HttpEvent): Promise<{ files: UploadedFile[]; captions: string[] }> {
  const copy = { ...event, headers: { ...(event.headers ?? {}) } } as HttpEvent & { body: unknown };
  try {
    await httpMultipartBodyParser({ busboy: { limits: { fileSize: MAX_FILE_BYTES, files: 10 } } }).before!({ event: copy } as never);
  } catch {
    throw new AppError("ERR_VALIDATION", 400, { fields: [{ path: "medias", message: "Invalid multipart body" }] });
  }
  const body = (copy.body ?? {}) as Record<string, unknown>;
  const raw = body.medias;
  const list = (Array.isArray(raw) ? [...raw].reverse() : raw ? [raw] : []) as Attachment[];
  if (list.some((f) => !f || typeof f !== "object" || !Buffer.isBuffer(f.content))) {
    throw new AppError("ERR_VALIDATION", 400, { fields: [{ path: "medias", message: "Invalid file" }] });
  }
  if (list.some((f) => f.truncated)) throw new AppError("ERR_PAYLOAD_TOO_LARGE", 413);
  if (list.some((f) => f.content.length === 0)) throw new AppError("ERR_VALIDATION", 400, { fields: [{ path: "medias", message: "Empty file" }] });
  const captions = ([] as unknown[]).concat(body.body ?? []).filter((c): c is string => typeof c === "string");
  return {
    files: list.map((f) => ({ filename: String(f.filename ?? "file").slice(0, 200), mimetype: String(f.mimetype ?? "application/octet-stream"), content: f.content })),
    captions,
  };
}

export const handler = areaHandler("messages", {
  "GET /api/messages/{ticketId}": route({
    params: TicketParams,
    query: z.object({ pageNumber: zPageNumber, cursor: z.string().max(4000).optional() }),
    handler: async (ctx) => listTicketMessages(ctx.auth, ctx.params.ticketId, ctx.query),
  }),
  "POST /api/messages/{ticketId}": route({
    params: TicketParams,
    rawBody: true,
    handler: async (ctx) => {
      const type = String(ctx.event.headers?.["content-type"] ?? ctx.event.headers?.["Content-Type"] ?? "");
      if (type.startsWith("multipart/form-data")) {
        const { files, captions } = await parseMultipart(ctx.event);
        return sendMediaMessages(ctx.auth, ctx.params.ticketId, files, captions);
      }
      let json: unknown = {};
      if (ctx.rawBody.length) {
        try {
          json = JSON.parse(ctx.rawBody.toString("utf8"));
        } catch {
          throw new AppError("ERR_INVALID_JSON", 400);
        }
      }
      const body = SendMessageBody.parse(json);
      return sendTicketMessage(ctx.auth, ctx.params.ticketId, {
        body: body.body,
        quotedMsgId: body.quotedMsg?.id ?? null,
        signMessage: body.signMessage,
      });
    },
  }),
  "POST /api/messages/edit/{id}": route({
    params: MessageIdParams,
    body: z.object({ body: z.string().max(65536) }).passthrough(),
    handler: async (ctx) => editMessage(ctx.auth, ctx.params.id, ctx.body.body),
  }),
  "DELETE /api/messages/{id}": route({
    params: MessageIdParams,
    handler: async (ctx) => deleteMessage(ctx.auth, ctx.params.id),
  }),
  "POST /api/messages/{id}/reactions": route({
    params: MessageIdParams,
    body: z.object({ type: z.string().max(32) }),
    handler: async (ctx) => reactToMessage(ctx.auth, ctx.params.id, ctx.body.type),
  }),
  "POST /api/message/forward": route({
    body: z.object({ messageId: z.string().min(1).max(128), contactId: zId, signMessage: z.boolean().optional() }),
    handler: async (ctx) => forwardMessage(ctx.auth, ctx.body),
  }),
});
