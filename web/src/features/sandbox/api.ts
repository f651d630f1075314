/**
 * Client of the sandbox `/sim` endpoints (local stack only; `session-runner/src/sim-http.ts`): the simulated customers'
 * side of one connection. No bearer token: `/sim` exists only in the local stack and is never deployed.
 *
 * - `simState(id)` GET `/sim/whatsapp/{id}` → `{qrcode, open}`; `simScan(id, number?)` POST `/scan` → `{number}`;
 * - `simSend(id, body)` POST `/messages` (text | base64 media | location | vcard | reaction | quotedId) → `{id}`;
 * - `simEvent(id, event, data)` POST `/events` (raw Baileys events: customer edits and deletes);
 * - `simSent(id)` GET `/sent` → what the agents sent; `simReceipts(id, body)` POST `/receipts`;
 * - `simThread(id, number)` GET `/thread?number=` → the chat with that number as the customer's phone shows it, both
 *   sides (kept by the simulated network, so a reload gets the customer's own messages and reactions back), replies
 *   with their quote; `simPictureUrl(id, messageId)` the picture of an image or sticker of it.
 * @throws SimHttpError with the `{"error"}` code of a non-2xx answer.
 */
export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

async function call<T>(method: "GET" | "POST", path: string, body?: unknown, keepalive = false): Promise<T> {
  const res = await fetch(`/sim/whatsapp/${path}`, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    keepalive,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!res.ok) throw new SimHttpError(res.status, (parsed as { error?: string })?.error ?? `HTTP ${res.status}`);
  return parsed as T;
}

export interface SimInboundBody {
  from: string;
  pushName?: string;
  text?: string;
  image?: string;
  audio?: string;
  video?: string;
  document?: string;
  sticker?: string;
  mimetype?: string;
  caption?: string;
  fileName?: string;
  ptt?: boolean;
  location?: { degreesLatitude: number; degreesLongitude: number; name?: string; address?: string };
  vcard?: string;
  quotedId?: string;
  reaction?: { messageId: string; emoji: string };
}

/** One thing an agent sent (Baileys `AnyMessageContent` as JSON). */
export interface SentRecord {
  id: string;
  jid: string;
  content: Record<string, unknown>;
  at: string;
}

/** One bubble of the customer's phone (`session-runner/src/transport/sim-thread.ts`). `mine`: sent by the customer. */
export interface ThreadMessage {
  id: string;
  mine: boolean;
  kind: "text" | "image" | "audio" | "video" | "document" | "location" | "vcard" | "sticker";
  text: string;
  at: string;
  edited: boolean;
  deleted: boolean;
  reactions: { mine: boolean; emoji: string }[];
  /** The message it replies to, when it is a reply. */
  quoted?: { id: string; mine: boolean; kind: ThreadMessage["kind"]; text: string; deleted: boolean };
}

/** Where the phone shows the picture of an image or sticker message of the thread (`GET /sim/whatsapp/{id}/media/{messageId}`). */
export const simPictureUrl = (id: number, messageId: string) => `/sim/whatsapp/${id}/media/${encodeURIComponent(messageId)}`;

export const simThread = (id: number, number: string) => call<ThreadMessage[]>("GET", `${id}/thread?number=${encodeURIComponent(number)}`);
export const simState = (id: number) => call<{ qrcode: string; open: boolean }>("GET", `${id}`);
export const simScan = (id: number, number?: string) => call<{ number: string }>("POST", `${id}/scan`, number ? { number } : {});
export const simSend = (id: number, body: SimInboundBody) => call<{ id: string; handled: boolean }>("POST", `${id}/messages`, body);
export const simEvent = (id: number, event: string, data: unknown) => call<{ handled: boolean }>("POST", `${id}/events`, { event, data });
export const simSent = (id: number) => call<SentRecord[]>("GET", `${id}/sent`);
export const simReceipts = (id: number, body: { auto: boolean } | { id: string; status: number }, keepalive = false) => call("POST", `${id}/receipts`, body, keepalive);

/**
 * The sandbox's "pay this Pix" (`POST /sim/pix/pay`): the bank's side of a Pix. The local stack reads the BR Code and
 * confirms it through the Pix webhook, as the provider does in the cloud. Answers `{applied}` (0: already paid or no
 * such charge). @throws SimHttpError `ERR_PIX_CODE` for a code that is not a valid Pix code.
 */
export async function simPayPix(code: string): Promise<{ applied: number }> {
  const res = await fetch("/sim/pix/pay", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) });
  const body = (await res.json().catch(() => ({}))) as { applied?: number; error?: string };
  if (!res.ok) throw new SimHttpError(res.status, body.error ?? `HTTP ${res.status}`);
  return { applied: body.applied ?? 0 };
}

/** A random WhatsApp-style message id (upper-case hex, like Baileys'). */
export function randomMessageId(): string {
  const b = new Uint8Array(10);
  crypto.getRandomValues(b);
  return `3EB0${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("").toUpperCase()}`;
}

/** The customer edits one of their messages (Baileys `protocolMessage` MESSAGE_EDIT in a `messages.upsert`). */
export function simEdit(whatsappId: number, from: string, pushName: string, targetId: string, text: string) {
  const remoteJid = `${from}@s.whatsapp.net`;
  return simEvent(whatsappId, "messages.upsert", {
    type: "notify",
    messages: [
      {
        key: { remoteJid, fromMe: false, id: randomMessageId() },
        message: { protocolMessage: { key: { remoteJid, fromMe: false, id: targetId }, type: 14, editedMessage: { conversation: text } } },
        messageTimestamp: Math.floor(Date.now() / 1000),
        pushName,
      },
    ],
  });
}

/** The customer deletes one of their messages for everyone (Baileys `protocolMessage` REVOKE). */
export function simRevoke(whatsappId: number, from: string, pushName: string, targetId: string) {
  const remoteJid = `${from}@s.whatsapp.net`;
  return simEvent(whatsappId, "messages.upsert", {
    type: "notify",
    messages: [
      {
        key: { remoteJid, fromMe: false, id: randomMessageId() },
        message: { protocolMessage: { key: { remoteJid, fromMe: false, id: targetId }, type: 0 } },
        messageTimestamp: Math.floor(Date.now() / 1000),
        pushName,
      },
    ],
  });
}

/** Reads a File as base64 (no data: prefix). */
export function fileToBase64(f: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).split(",")[1] ?? "");
    r.onerror = () => reject(r.error);
    r.readAsDataURL(f);
  });
}
