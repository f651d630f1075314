/**
 * Sandbox endpoints of the simulated WhatsApp network (docs/architecture.md#2-one-machine-npm-start). Local only: served by the local
 * stack's gateway, never part of the CDK app. Bodies are parsed with zod (`/events` with Baileys' `BufferJSON.reviver`
 * first, so binary fields may come as `{"type":"Buffer","data":...}`). Errors are `{"error": "ERR_..."}` 400/404/409.
 *
 * - `POST /sim/whatsapp/{id}/scan` `{number?}` → `{number}` once the session is CONNECTED.
 * - `POST /sim/whatsapp/{id}/messages` `{from, pushName?, text? | image|audio|video|document|sticker (base64) + mimetype,
 *   caption, fileName, ptt, fileLength? | location | vcard, quotedId?, reaction?}` → `{id, handled, skipped}` once handled.
 * - `POST /sim/whatsapp/{id}/events` `{event, data}` → `{handled, skipped}` once handled (never 5xx).
 * - `GET /sim/whatsapp/{id}/sent` → `[{id, jid, content, at}]`, oldest first.
 * - `GET /sim/whatsapp/{id}/thread?number=<digits>` → the chat with that number as the customer's phone shows it
 *   (`ThreadMessage[]`, both sides, oldest first; `sim-thread.ts`): what the sandbox page reads after a reload.
 * - `GET /sim/whatsapp/{id}/media/{messageId}` → the picture of an image or sticker of the thread (decrypted bytes with
 *   their MIME type; 404 `ERR_NO_MESSAGE_FOUND` for anything else): the sandbox phone shows it.
 * - `POST /sim/whatsapp/{id}/receipts` `{auto: boolean}` or `{id, status}`.
 * - `GET /sim/whatsapp/{id}` → `{qrcode, open}` (the sandbox phone page polls it to show what it can scan).
 * - `GET /sim/whatsapp/book` → `{numbers}`; `POST /sim/whatsapp/book` `{add?, remove?}` (digits) → `{numbers}`: the
 *   numbers the network's contact book marks with a WhatsApp account (everyone who sent a message is);
 *   `PUT /sim/contact-book/{number}` `{onWhatsApp}` marks one number with or without an account. What `onWhatsApp`
 *   answers for a number the book does not hold: see `SimNetwork.onWhatsApp`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { BufferJSON, type BaileysEventMap } from "@whiskeysockets/baileys";
import { z, ZodError } from "zod";
import type { Runner } from "./runner.ts";
import { SimHttpError } from "./errors.ts";
import { SimError, type SimInbound, type SimMedia, type SimNetwork } from "./transport/simulator.ts";

const MAX_BODY_BYTES = 32 * 1024 * 1024;

const digits = z.string().regex(/^\d{8,20}$/, "digits only, with country code");
const base64 = z.string().min(1).regex(/^[A-Za-z0-9+/=\s_-]+$/, "base64");

const MessageBody = z
  .object({
    from: digits,
    pushName: z.string().max(100).optional(),
    text: z.string().max(65536).optional(),
    image: base64.optional(),
    audio: base64.optional(),
    video: base64.optional(),
    document: base64.optional(),
    sticker: base64.optional(),
    mimetype: z.string().max(200).optional(),
    caption: z.string().max(65536).optional(),
    fileName: z.string().max(255).optional(),
    ptt: z.boolean().optional(),
    /** The size the message announces (`fileLength`), when it should differ from the file's (a 1.5 GB announcement). */
    fileLength: z.number().int().min(0).max(2 ** 40).optional(),
    location: z
      .object({ degreesLatitude: z.number().min(-90).max(90), degreesLongitude: z.number().min(-180).max(180), name: z.string().optional(), address: z.string().optional() })
      .optional(),
    vcard: z.string().max(65536).optional(),
    quotedId: z.string().min(1).max(128).optional(),
    reaction: z.object({ messageId: z.string().min(1).max(128), emoji: z.string().max(16) }).optional(),
  })
  .refine((b) => [b.text, b.image, b.audio, b.video, b.document, b.sticker, b.location, b.vcard, b.reaction].some((v) => v !== undefined), {
    message: "one of text, image, audio, video, document, sticker, location, vcard or reaction is required",
  });

/** `POST /sim/whatsapp/book`: numbers to add to and remove from the contact book. */
const BookBody = z.object({ add: z.array(digits).max(20_000).optional(), remove: z.array(digits).max(20_000).optional() });

const DEFAULT_MIME: Record<SimMedia["kind"], string> = {
  image: "image/jpeg",
  audio: "audio/ogg; codecs=opus",
  video: "video/mp4",
  document: "application/pdf",
  sticker: "image/webp",
};

const EventBody = z.object({ event: z.string().min(1).max(100), data: z.unknown() });
const ScanBody = z.object({ number: digits.optional() });
const ContactBookBody = z.object({ onWhatsApp: z.boolean() });
const ReceiptsBody = z.union([z.object({ auto: z.boolean() }), z.object({ id: z.string().min(1), status: z.number().int().min(0).max(5) })]);

const HttpError = SimHttpError;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, { error: "ERR_PAYLOAD_TOO_LARGE" });
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function jsonBody(req: IncomingMessage, reviver?: (k: string, v: unknown) => unknown): Promise<unknown> {
  const text = await readBody(req);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text, reviver as never);
  } catch {
    throw new HttpError(400, { error: "ERR_INVALID_JSON" });
  }
}

function toInbound(b: z.infer<typeof MessageBody>): SimInbound {
  const kind = (["image", "audio", "video", "document", "sticker"] as const).find((k) => b[k] !== undefined);
  const media: SimMedia | undefined = kind
    ? {
        kind,
        bytes: Buffer.from(b[kind]!.replace(/\s/g, ""), "base64"),
        mimetype: b.mimetype ?? DEFAULT_MIME[kind],
        caption: b.caption,
        fileName: b.fileName,
        ptt: b.ptt,
        fileLength: b.fileLength,
      }
    : undefined;
  return {
    from: b.from,
    pushName: b.pushName,
    text: b.text,
    media,
    location: b.location,
    vcard: b.vcard,
    quotedId: b.quotedId,
    reaction: b.reaction,
  };
}

/** Builds the `/sim` request handler; resolves false when the path is not under `/sim/`. */
export function createSimHandler(network: SimNetwork | null, runner: Runner) {
  // A connection's inbound messages are read, built (media encrypted) and delivered one after another, as a phone's
  // arrive: fifty posted at once do not hold fifty bodies in memory (an unread request waits in its socket). The wait
  // for the runner to handle each one is not serialized, and other connections are not held up.
  const building = new Map<number, Promise<unknown>>();
  const oneAtATime = <T>(whatsappId: number, work: () => Promise<T>): Promise<T> => {
    const run = (building.get(whatsappId) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    building.set(whatsappId, tail);
    void tail.then(() => building.get(whatsappId) === tail && building.delete(whatsappId));
    return run;
  };
  return async function handleSim(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/sim" && !path.startsWith("/sim/")) return false;
    try {
      if (!network) throw new HttpError(404, { error: "ERR_ROUTE_NOT_FOUND", reason: "WA_PROVIDER is not simulator" });
      const pic = path.match(/^\/sim\/whatsapp\/(\d+)\/media\/([A-Za-z0-9._-]{1,128})$/);
      if (pic && req.method === "GET") {
        const found = await network.picture(Number(pic[1]), pic[2]);
        if (!found) throw new HttpError(404, { error: "ERR_NO_MESSAGE_FOUND" });
        // Only a picture type is answered as such: a message's MIME type is the sender's word.
        const type = /^image\/[\w.+-]+$/.test(found.mimetype) ? found.mimetype : "application/octet-stream";
        res.writeHead(200, { "content-type": type, "content-length": found.bytes.length, "cache-control": "private, max-age=3600", "x-content-type-options": "nosniff" });
        res.end(found.bytes);
        return true;
      }
      if (path === "/sim/whatsapp/book") {
        if (req.method === "POST") {
          const body = BookBody.parse(await jsonBody(req));
          network.addToBook(body.add ?? []);
          network.removeFromBook(body.remove ?? []);
        } else if (req.method !== "GET") throw new HttpError(404, { error: "ERR_ROUTE_NOT_FOUND" });
        send(res, 200, { numbers: network.bookNumbers() });
        return true;
      }
      const book = path.match(/^\/sim\/contact-book\/(\d{8,20})$/);
      if (book && req.method === "PUT") {
        const body = ContactBookBody.parse(await jsonBody(req));
        network.setOnWhatsApp(book[1], body.onWhatsApp);
        send(res, 200, { number: book[1], onWhatsApp: body.onWhatsApp });
        return true;
      }
      const m = path.match(/^\/sim\/whatsapp\/(\d+)(?:\/(scan|messages|events|sent|receipts|thread))?\/?$/);
      if (!m) throw new HttpError(404, { error: "ERR_ROUTE_NOT_FOUND" });
      const whatsappId = Number(m[1]);
      const action = m[2] ?? "";
      const route = `${req.method} ${action}`;
      const session = () => {
        const s = runner.sessions.get(whatsappId);
        if (!s) throw new HttpError(409, { error: "ERR_WAPP_NOT_INITIALIZED" });
        return s;
      };
      switch (route) {
        case "GET ": {
          const s = runner.sessions.get(whatsappId);
          send(res, 200, { qrcode: network.currentQr(whatsappId), open: !!s?.isOpen });
          return true;
        }
        case "POST scan": {
          const body = ScanBody.parse(await jsonBody(req));
          const s = session();
          const number = await network.scan(whatsappId, body.number);
          await s.waitFor((x) => x.isOpen || x.phase === "stopped");
          if (!s.isOpen) throw new HttpError(409, { error: "ERR_WAPP_NOT_INITIALIZED" });
          send(res, 200, { number });
          return true;
        }
        case "POST messages": {
          const { s, mark, msg } = await oneAtATime(whatsappId, async () => {
            const body = MessageBody.parse(await jsonBody(req));
            const s = session();
            if (!s.isOpen) throw new HttpError(409, { error: "ERR_WAPP_NOT_INITIALIZED" });
            const mark = s.mark();
            return { s, mark, msg: await network.deliverInbound(whatsappId, toInbound(body)) };
          });
          const results = await s.settled(mark);
          send(res, 200, { id: msg.key.id, handled: results.some((r) => r.handled), skipped: results.flatMap((r) => r.skipped) });
          return true;
        }
        case "POST events": {
          const body = EventBody.parse(await jsonBody(req, BufferJSON.reviver));
          const s = session();
          const mark = s.mark();
          network.emit(whatsappId, body.event as keyof BaileysEventMap, body.data as never);
          const results = await s.settled(mark);
          const skipped = results.flatMap((r) => r.skipped);
          if (!results.length) skipped.push({ reason: "the event reached no handler" });
          send(res, 200, { handled: results.length > 0 && results.every((r) => r.handled), skipped });
          return true;
        }
        case "GET sent":
          send(res, 200, network.sent(whatsappId));
          return true;
        case "GET thread": {
          const number = digits.parse(new URL(req.url ?? "/", "http://sim").searchParams.get("number") ?? "");
          send(res, 200, network.thread(whatsappId, number));
          return true;
        }
        case "POST receipts": {
          const body = ReceiptsBody.parse(await jsonBody(req));
          if ("auto" in body) {
            network.setAutoReceipts(whatsappId, body.auto);
            send(res, 200, { auto: body.auto });
            return true;
          }
          const s = session();
          const mark = s.mark();
          network.receipt(whatsappId, body.id, body.status);
          const results = await s.settled(mark);
          send(res, 200, { handled: results.every((r) => r.handled), skipped: results.flatMap((r) => r.skipped) });
          return true;
        }
        default:
          throw new HttpError(404, { error: "ERR_ROUTE_NOT_FOUND" });
      }
    } catch (err) {
      if (err instanceof HttpError) send(res, err.status, err.body);
      else if (err instanceof ZodError) send(res, 400, { error: "ERR_VALIDATION", fields: err.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
      else if (err instanceof SimError) send(res, err.code === "ERR_NO_MESSAGE_FOUND" ? 404 : 409, { error: err.code, message: err.message });
      else send(res, 409, { error: "ERR_SIMULATOR", message: (err as Error).message });
      return true;
    }
  };
}
