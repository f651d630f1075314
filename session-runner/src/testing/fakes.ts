/**
 * Test doubles of the runner's ports (tests only): a recording ingest port that downloads media like the ingest does,
 * and an in-memory message store holding the outbound messages the `send` command loads.
 */
import { randomBytes } from "node:crypto";
import type { WAMessage } from "@whiskeysockets/baileys";
import type { MessageItem } from "@atende/shared/messages/schema";
import type { IngestContext, IngestResult, MessageStorePort } from "../ports.ts";

export interface Seen {
  ctx: IngestContext;
  event: string;
  data: any;
}

/** Records every event the runner forwards; downloads the media of inbound media messages like the ingest does. */
export function recordingIngest() {
  const seen: Seen[] = [];
  const downloads: { id: string; bytes: Buffer | null; mimetype?: string }[] = [];
  const port = async (ctx: IngestContext, event: string, data: unknown): Promise<IngestResult> => {
    seen.push({ ctx, event, data });
    if (event === "messages.upsert") {
      for (const m of (data as { messages: WAMessage[] }).messages) {
        const c = m.message;
        if (c?.imageMessage || c?.documentMessage || c?.audioMessage) {
          const got = await ctx.downloadMedia!(m);
          // The runner answers a stream; the fake reads it whole to compare the bytes.
          let bytes: Buffer | null = null;
          if (got && "stream" in got) {
            const chunks: Uint8Array[] = [];
            for await (const c of got.stream) chunks.push(c);
            bytes = Buffer.concat(chunks);
          } else if (got && "bytes" in got) bytes = Buffer.from(got.bytes);
          downloads.push({ id: m.key.id!, bytes, mimetype: got && "mimetype" in got ? got.mimetype : undefined });
        }
      }
    }
    if (event === "chats.update" && !Array.isArray(data)) return { handled: true, skipped: [{ reason: "invalid chats.update payload" }] };
    return { handled: true, skipped: [] };
  };
  return { seen, downloads, port };
}

/** An in-memory message store: the outbound messages the `send` command loads. */
export function memoryStore() {
  const messages = new Map<string, MessageItem>();
  const media = new Map<string, Buffer>();
  const published: MessageItem[] = [];
  const store: MessageStorePort = {
    async getMessage(_c, _t, id) {
      return messages.get(id) ?? null;
    },
    async updateMessage(_c, _t, id, patch) {
      const next = { ...messages.get(id)!, ...patch };
      messages.set(id, next);
      return next;
    },
    async getMedia(key) {
      return media.get(key)!;
    },
    async publishMessageUpdate(m) {
      published.push(m);
    },
    async findWaMessage(_c, _w, _jid, id) {
      return messages.get(id) ?? null;
    },
  };
  const add = (companyId: number, whatsappId: number, body: string, extra: Partial<MessageItem> = {}) => {
    const id = `3EB0${randomBytes(8).toString("hex").toUpperCase()}`;
    const now = new Date().toISOString();
    const m: MessageItem = {
      id, ticketId: 1, companyId, contactId: 1, whatsappId, remoteJid: "5511900000001@s.whatsapp.net", participant: null, senderName: null,
      body, fromMe: true, read: true, mediaType: "chat", mediaKey: null, mediaName: null, mediaMime: null, mediaSize: null, mediaError: false,
      ack: 0, isDeleted: false, isEdited: false, previousBody: null, isForwarded: false, quotedMsgId: null, reactions: [], waTimestamp: now,
      userId: 1, sendError: null, createdAt: now, updatedAt: now, ...extra,
    } as MessageItem;
    messages.set(id, m);
    return m;
  };
  return { store, messages, media, published, add };
}

