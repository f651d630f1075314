/**
 * The simulated WhatsApp network (docs/architecture.md#2-one-machine-npm-start).
 *
 * `SimNetwork` plays WhatsApp's servers and the customers' phones for every connection of the process:
 * - its sockets are typed against Baileys' own `WASocket` (`RunnerSocket = Pick<WASocket, ...>`) and use Baileys' own
 *   event emitter (`makeEventBuffer`), so the session runner cannot tell them from `makeWASocket`;
 * - an unpaired socket emits `connection.update {qr}` (Baileys' `buildPairingQRData`), a new QR every `qrIntervalMs`,
 *   and closes with 408 "QR refs attempts ended" after `maxQrs`, like Baileys;
 * - scanning pairs the connection (creds stored in DynamoDB, `WA#<wid>`/`CREDS`, so a restarted runner resumes without
 *   a new QR), emits `creds.update` and closes with 515 restartRequired; the reconnected socket opens;
 * - `sendMessage` builds the real `WAMessage` with Baileys' `generateWAMessage` (media encrypted by Baileys'
 *   `encryptedStream` and "uploaded" to this network's media server), records it, echoes it as `messages.upsert`
 *   type `append` and answers with receipts (`messages.update` status 2, 3, 4) unless receipts are manual;
 * - inbound messages are built with Baileys' `prepareWAMessageMedia` for media, served encrypted over local HTTP at the
 *   message's `url` (no `directPath`: Baileys turns a directPath into an https URL), so Baileys' `downloadMediaMessage`
 *   downloads and decrypts them unchanged.
 */
import { createServer, type Server } from "node:http";
import { createReadStream } from "node:fs";
import { copyFile, mkdtemp, rm, stat, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Boom } from "@hapi/boom";
import {
  Browsers,
  BufferJSON,
  buildPairingQRData,
  DisconnectReason,
  downloadMediaMessage,
  generateMessageIDV2,
  generateWAMessage,
  initAuthCreds,
  jidNormalizedUser,
  makeEventBuffer,
  prepareWAMessageMedia,
  proto,
  type AnyMessageContent,
  type AuthenticationCreds,
  type BaileysEventMap,
  type WAMediaUploadFunction,
  type WAMessage,
  type WAMessageKey,
  type WAPresence,
} from "@whiskeysockets/baileys";
import pino from "pino";
import { loadCreds, saveCreds, wipeAuthState } from "../auth-state.ts";
import type { RunnerSocket, SessionRef, Transport } from "../ports.ts";
import { SimError } from "../errors.ts";
import { type CarriedMessage, MAX_CARRIED, threadOf, type ThreadMessage } from "./sim-thread.ts";

/** One thing the runner sent through a socket, as `GET /sim/whatsapp/{id}/sent` shows it. */
export interface SentRecord {
  id: string;
  jid: string;
  /** The `AnyMessageContent` given to `sendMessage` (Buffers as `{type:"Buffer", data}` via `BufferJSON.replacer`). */
  content: unknown;
  at: string;
}

export interface SimOptions {
  /** Time a QR lives before the next one (ms). Default 60000 (Baileys: 60 s, then 20 s). */
  qrIntervalMs?: number;
  /** QRs shown before the socket closes with 408 (Baileys gets ~6 refs). Default 6. */
  maxQrs?: number;
  /** Delay between automatic receipts 2 → 3 → 4 (ms). Default 300. */
  receiptDelayMs?: number;
}

/** Media of an inbound simulated message. */
export interface SimMedia {
  kind: "image" | "audio" | "video" | "document" | "sticker";
  bytes: Buffer;
  mimetype: string;
  caption?: string;
  fileName?: string;
  ptt?: boolean;
  /** The size announced in the message (`fileLength`), when it should differ from `bytes` (e.g. the media storm's 1.5 GB announcement). */
  fileLength?: number;
}

/** What a simulated contact sends (`POST /sim/whatsapp/{id}/messages`). */
export interface SimInbound {
  /** Sender phone, digits only (E.164 without +). */
  from: string;
  pushName?: string;
  text?: string;
  media?: SimMedia;
  location?: { degreesLatitude: number; degreesLongitude: number; name?: string; address?: string };
  vcard?: string;
  quotedId?: string;
  reaction?: { messageId: string; emoji: string };
}

interface Phone {
  creds: AuthenticationCreds | null;
  socket: SimSocket | null;
  sent: SentRecord[];
  reads: WAMessageKey[];
  /** Presence updates the runner sent (`sendPresenceUpdate`), oldest first. */
  presences: { presence: string; jid: string | undefined }[];
  /** Calls the runner rejected (`rejectCall`), oldest first. */
  rejectedCalls: { callId: string; callFrom: string; at: string }[];
  autoReceipts: boolean;
  /** Every message this network saw for the connection (id → message), for quotes and reactions. */
  known: Map<string, WAMessage>;
  /** What the network carried both ways, oldest first (at most `MAX_CARRIED`): the sandbox phone's threads. */
  carried: CarriedMessage[];
}

const logger = pino({ level: "silent" });
const MAX_MEDIA = 500;

/** The number part of a user JID (`5511999990000:7@s.whatsapp.net` → `5511999990000`). */
export const jidNumber = (jid: string) => jidNormalizedUser(jid).split("@")[0];

class SimSocket {
  readonly ev = makeEventBuffer(logger);
  closed = false;
  state: "connecting" | "qr" | "open" = "connecting";
  qr = "";
  private qrTimer: NodeJS.Timeout | undefined;
  private qrShown = 0;

  constructor(
    readonly net: SimNetwork,
    readonly ref: SessionRef,
    readonly phone: Phone,
  ) {}

  get user() {
    const me = this.phone.creds?.me;
    return this.state === "open" && me ? { ...me } : undefined;
  }

  /** Called once the runner had the chance to subscribe (next macrotask). */
  boot() {
    setTimeout(() => {
      if (this.closed) return;
      this.emit("connection.update", { connection: "connecting" });
      if (this.phone.creds?.me) {
        this.state = "open";
        this.emit("connection.update", { connection: "open", receivedPendingNotifications: true, isOnline: true });
      } else {
        this.showQr();
      }
    }, 0);
  }

  private showQr() {
    if (this.closed) return;
    if (this.qrShown >= this.net.opts.maxQrs) {
      void this.end(new Boom("QR refs attempts ended", { statusCode: DisconnectReason.timedOut }));
      return;
    }
    this.qrShown++;
    this.phone.creds ??= initAuthCreds();
    const creds = this.phone.creds;
    const refStr = `2@${randomBytes(24).toString("base64")}`;
    this.qr = buildPairingQRData(
      refStr,
      Buffer.from(creds.noiseKey.public).toString("base64"),
      Buffer.from(creds.signedIdentityKey.public).toString("base64"),
      creds.advSecretKey,
      Browsers.ubuntu("Chrome"),
    );
    this.state = "qr";
    this.emit("connection.update", { qr: this.qr });
    this.qrTimer = setTimeout(() => this.showQr(), this.net.opts.qrIntervalMs);
  }

  emit<T extends keyof BaileysEventMap>(event: T, data: BaileysEventMap[T]) {
    if (this.closed && event !== "connection.update") return false;
    return this.ev.emit(event, data);
  }

  /** Pairs with `number`: stores creds, emits `creds.update`, then closes with 515 like Baileys after pair-success. */
  async pair(number: string, name: string) {
    this.phone.creds ??= initAuthCreds();
    const creds = this.phone.creds;
    creds.me = { id: `${number}:${1 + Math.floor(Math.random() * 40)}@s.whatsapp.net`, name };
    creds.registered = true;
    await saveCreds(this.ref.whatsappId, creds, 0);
    clearTimeout(this.qrTimer);
    this.emit("creds.update", { me: creds.me, registered: true });
    this.emit("connection.update", { isNewLogin: true, qr: undefined });
    await this.end(new Boom("Stream Errored (restart required)", { statusCode: DisconnectReason.restartRequired }));
  }

  readonly sendMessage = async (jid: string, content: AnyMessageContent, options: { messageId?: string; quoted?: WAMessage } = {}): Promise<WAMessage | undefined> => {
    if (this.closed || this.state !== "open") throw new Boom("Connection Closed", { statusCode: DisconnectReason.connectionClosed });
    const me = this.phone.creds!.me!;
    // Snapshot first: Baileys' generator adds fields (e.g. `senderTimestampMs`) to the content it is given.
    const given = JSON.parse(JSON.stringify(content, BufferJSON.replacer));
    const msg = await generateWAMessage(jid, content, {
      userJid: jidNormalizedUser(me.id),
      messageId: options.messageId ?? generateMessageIDV2(me.id),
      quoted: options.quoted,
      upload: this.net.upload,
      logger,
    });
    msg.status = proto.WebMessageInfo.Status.SERVER_ACK;
    this.phone.sent.push({ id: msg.key.id!, jid, content: given, at: new Date().toISOString() });
    this.phone.known.set(msg.key.id!, msg);
    this.net.carry(this.phone, msg);
    process.nextTick(() => this.emit("messages.upsert", { messages: [msg], type: "append" }));
    if (this.phone.autoReceipts) this.net.scheduleReceipts(this.ref.whatsappId, msg.key);
    return msg;
  };

  /** Baileys' `onWhatsApp`: each number (or JID) answered from the network's contact book (`SimNetwork.onWhatsApp`). */
  readonly onWhatsApp = async (...numbers: string[]): Promise<{ jid: string; exists: boolean }[]> => {
    if (this.closed || this.state !== "open") throw new Boom("Connection Closed", { statusCode: DisconnectReason.connectionClosed });
    return numbers.map((n) => {
      const digits = n.split("@")[0].replace(/\D+/g, "");
      return { jid: `${digits}@s.whatsapp.net`, exists: this.net.onWhatsApp(digits) };
    });
  };

  readonly readMessages = async (keys: WAMessageKey[]): Promise<void> => {
    this.phone.reads.push(...keys);
  };

  readonly sendPresenceUpdate = async (presence: WAPresence, toJid?: string): Promise<void> => {
    this.phone.presences.push({ presence, jid: toJid });
  };

  readonly updateMediaMessage = async (message: WAMessage): Promise<WAMessage> => message;

  /** Rejects a ringing call: recorded as what the caller's phone saw (`rejectedCalls`). */
  readonly rejectCall = async (callId: string, callFrom: string): Promise<void> => {
    if (this.closed || this.state !== "open") throw new Boom("Connection Closed", { statusCode: DisconnectReason.connectionClosed });
    this.phone.rejectedCalls.push({ callId, callFrom, at: new Date().toISOString() });
  };

  readonly logout = async (_msg?: string): Promise<void> => {
    this.phone.creds = null;
    await wipeAuthState(this.ref.whatsappId);
    await this.end(new Boom("Intentional Logout", { statusCode: DisconnectReason.loggedOut }));
  };

  readonly end = async (error: Error | undefined): Promise<void> => {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.qrTimer);
    this.ev.emit("connection.update", { connection: "close", lastDisconnect: { error, date: new Date() } });
    if (this.phone.socket === this) this.phone.socket = null;
  };
}

/** The network: phones per connection, a media server, and the transport the runner uses. */
export class SimNetwork {
  readonly opts: Required<SimOptions>;
  private phones = new Map<number, Phone>();
  /** Encrypted media the network serves, kept on disk (id → size in bytes): the sandbox holds no media in memory. */
  private media = new Map<string, number>();
  private mediaDir = "";
  private server: Server | undefined;
  private baseUrl = "";
  private timers = new Set<NodeJS.Timeout>();

  constructor(opts: SimOptions = {}) {
    this.opts = { qrIntervalMs: opts.qrIntervalMs ?? 60000, maxQrs: opts.maxQrs ?? 6, receiptDelayMs: opts.receiptDelayMs ?? 300 };
  }

  /** Starts the local media server (127.0.0.1, ephemeral port), streaming files from a temporary folder. */
  async start(): Promise<void> {
    this.mediaDir = await mkdtemp(join(tmpdir(), "atende-sim-media-"));
    this.server = createServer((req, res) => {
      const id = decodeURIComponent((req.url ?? "").replace(/^\/media\//, "").split("?")[0]);
      const size = this.media.get(id);
      if (req.method !== "GET" || size === undefined) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader("content-type", "application/octet-stream");
      res.setHeader("content-length", String(size));
      createReadStream(join(this.mediaDir, id))
        .on("error", () => res.destroy())
        .pipe(res);
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** Stops timers, closes sockets (without logout) and the media server. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const p of this.phones.values()) await p.socket?.end(undefined);
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = undefined;
    if (this.mediaDir) await rm(this.mediaDir, { recursive: true, force: true });
    this.media.clear();
  }

  /** Baileys' upload hook: keeps the encrypted file and answers its local URL. */
  readonly upload: WAMediaUploadFunction = async (encFilePath) => {
    const id = `${Date.now()}-${randomBytes(8).toString("hex")}`;
    await copyFile(encFilePath, join(this.mediaDir, id));
    this.media.set(id, (await stat(join(this.mediaDir, id))).size);
    if (this.media.size > MAX_MEDIA) {
      const oldest = this.media.keys().next().value!;
      this.media.delete(oldest);
      await unlink(join(this.mediaDir, oldest)).catch(() => undefined);
    }
    return { mediaUrl: `${this.baseUrl}/media/${id}`, directPath: "" };
  };

  private phone(whatsappId: number): Phone {
    let p = this.phones.get(whatsappId);
    if (!p) {
      p = { creds: null, socket: null, sent: [], reads: [], presences: [], rejectedCalls: [], autoReceipts: true, known: new Map(), carried: [] };
      this.phones.set(whatsappId, p);
    }
    return p;
  }

  /** The transport adapter of this network (`WA_PROVIDER=simulator`). */
  transport(): Transport {
    return {
      name: "simulator",
      connect: async (ref) => {
        const phone = this.phone(ref.whatsappId);
        phone.creds = await loadCreds(ref.whatsappId);
        await phone.socket?.end(new Boom("Connection Replaced", { statusCode: DisconnectReason.connectionReplaced }));
        const sock = new SimSocket(this, ref, phone);
        phone.socket = sock;
        sock.boot();
        return sock satisfies RunnerSocket;
      },
      wipe: async (ref) => {
        this.phone(ref.whatsappId).creds = null;
        await wipeAuthState(ref.whatsappId);
      },
    };
  }

  private openSocket(whatsappId: number): SimSocket {
    const s = this.phones.get(whatsappId)?.socket;
    if (!s || s.closed || s.state !== "open") throw new SimError("ERR_WAPP_NOT_INITIALIZED", "the connection is not open");
    return s;
  }

  /**
   * The network's contact book: numbers marked with or without a WhatsApp account (`setOnWhatsApp`, the sandbox's
   * `PUT /sim/contact-book/{number}`). A number the book does not hold has an account when it has 10 to 15 digits
   * (country code, area code, number), so the sandbox phone can write from any plausible number.
   */
  private book = new Map<string, boolean>();

  /** Whether `number` (digits) has a WhatsApp account on this network. */
  onWhatsApp(number: string): boolean {
    return this.book.get(number) ?? /^\d{10,15}$/.test(number);
  }

  /** Writes `number` (digits) into the contact book, with or without a WhatsApp account. */
  setOnWhatsApp(number: string, exists: boolean): void {
    this.book.set(number, exists);
  }

  /** Marks numbers (digits) as having a WhatsApp account. */
  addToBook(numbers: string[]): void {
    for (const n of numbers) this.book.set(n, true);
  }

  /** Marks numbers (digits) as having no WhatsApp account. */
  removeFromBook(numbers: string[]): void {
    for (const n of numbers) this.book.set(n, false);
  }

  /** The numbers the contact book marks as having an account, sorted. */
  bookNumbers(): string[] {
    return [...this.book].filter(([, exists]) => exists).map(([n]) => n).sort();
  }

  /** The QR currently shown for a connection ("" when none). */
  currentQr(whatsappId: number): string {
    const s = this.phones.get(whatsappId)?.socket;
    return s && !s.closed && s.state === "qr" ? s.qr : "";
  }

  /**
   * The sandbox phone scans the connection's current QR: pairs it with `number` (digits) or a generated one.
   * Throws `SimError("ERR_NO_QR")` when no QR is shown.
   */
  async scan(whatsappId: number, number?: string): Promise<string> {
    const s = this.phones.get(whatsappId)?.socket;
    if (!s || s.closed || s.state !== "qr") throw new SimError("ERR_NO_QR", "no QR code is being shown for this connection");
    const n = number ?? `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    await s.pair(n, `Atende ${whatsappId}`);
    return n;
  }

  /** Emits a raw Baileys event on the connection's open socket. */
  emit<T extends keyof BaileysEventMap>(whatsappId: number, event: T, data: BaileysEventMap[T]): void {
    const s = this.phones.get(whatsappId)?.socket;
    if (!s || s.closed) throw new SimError("ERR_WAPP_NOT_INITIALIZED", "the connection has no socket");
    if (event === "messages.upsert") for (const msg of (data as BaileysEventMap["messages.upsert"]).messages ?? []) this.carry(s.phone, msg);
    s.emit(event, data);
  }

  /** Keeps a message the network carried (for the sandbox phone's thread). */
  carry(phone: Phone, msg: WAMessage): void {
    phone.carried.push({ msg, at: new Date().toISOString() });
    if (phone.carried.length > MAX_CARRIED) phone.carried.splice(0, phone.carried.length - MAX_CARRIED);
  }

  /** The chat with `number` (digits) as the customer's phone shows it: both sides, edits, deletes and reactions applied. */
  thread(whatsappId: number, number: string): ThreadMessage[] {
    return threadOf(this.phones.get(whatsappId)?.carried ?? [], number);
  }

  /**
   * The picture of a carried image or sticker message (`messageId`, either side), decrypted with Baileys'
   * `downloadMediaMessage` from this network's media server, with its MIME type; null when the network has no such
   * picture (unknown id, another kind, or media dropped from the server).
   */
  async picture(whatsappId: number, messageId: string): Promise<{ bytes: Buffer; mimetype: string } | null> {
    const carried = this.phones.get(whatsappId)?.carried.find((c) => c.msg.key.id === messageId);
    const inner = carried?.msg.message?.imageMessage ?? carried?.msg.message?.stickerMessage;
    if (!carried || !inner) return null;
    try {
      const bytes = (await downloadMediaMessage(carried.msg, "buffer", {})) as Buffer;
      return { bytes, mimetype: inner.mimetype || "image/jpeg" };
    } catch {
      return null;
    }
  }

  /** Builds the real `WAMessage` a contact sends (media encrypted and served locally). */
  async buildInbound(whatsappId: number, input: SimInbound): Promise<WAMessage> {
    const sock = this.openSocket(whatsappId);
    const me = jidNormalizedUser(sock.phone.creds!.me!.id);
    const from = `${input.from}@s.whatsapp.net`;
    const phone = sock.phone;
    let contextInfo: proto.IContextInfo | undefined;
    if (input.quotedId) {
      const q = phone.known.get(input.quotedId);
      contextInfo = {
        stanzaId: input.quotedId,
        participant: q?.key.fromMe ? me : from,
        quotedMessage: q?.message ?? { conversation: "" },
      };
    }
    let message: proto.IMessage;
    if (input.reaction) {
      const target = phone.known.get(input.reaction.messageId);
      message = {
        reactionMessage: {
          key: { remoteJid: from, fromMe: target ? !!target.key.fromMe : false, id: input.reaction.messageId },
          text: input.reaction.emoji,
          senderTimestampMs: Date.now(),
        },
      };
    } else if (input.media) {
      const m = input.media;
      const content: Record<string, unknown> = { [m.kind]: m.bytes, mimetype: m.mimetype };
      if (m.caption && m.kind !== "audio" && m.kind !== "sticker") content.caption = m.caption;
      if (m.kind === "document") content.fileName = m.fileName ?? "file";
      if (m.kind === "audio") {
        content.ptt = !!m.ptt;
        content.seconds = 1;
      }
      const prepared = await prepareWAMessageMedia(content as never, { upload: this.upload, logger });
      message = proto.Message.fromObject(prepared as object);
      const inner = (message as Record<string, { contextInfo?: proto.IContextInfo; fileLength?: unknown } | undefined>)[`${m.kind}Message`];
      if (inner && contextInfo) inner.contextInfo = contextInfo;
      if (inner && m.fileLength != null) inner.fileLength = m.fileLength;
    } else if (input.location) {
      message = { locationMessage: { ...input.location, contextInfo } };
    } else if (input.vcard) {
      const displayName = input.vcard.match(/^FN[^:]*:(.*)$/m)?.[1]?.trim() ?? "";
      message = { contactMessage: { displayName, vcard: input.vcard, contextInfo } };
    } else if (contextInfo) {
      message = { extendedTextMessage: { text: input.text ?? "", contextInfo } };
    } else {
      message = { conversation: input.text ?? "" };
    }
    const msg = proto.WebMessageInfo.fromObject({
      key: { remoteJid: from, fromMe: false, id: generateMessageIDV2(from) },
      message,
      messageTimestamp: Math.floor(Date.now() / 1000),
      pushName: input.pushName ?? "",
      broadcast: false,
    }) as WAMessage;
    phone.known.set(msg.key.id!, msg);
    return msg;
  }

  /** A contact sends a message: emits `messages.upsert` `notify` (and `messages.reaction` for reactions, as Baileys does). */
  async deliverInbound(whatsappId: number, input: SimInbound): Promise<WAMessage> {
    const msg = await this.buildInbound(whatsappId, input);
    const sock = this.openSocket(whatsappId);
    this.book.set(input.from, true);
    this.carry(sock.phone, msg);
    sock.emit("messages.upsert", { messages: [msg], type: "notify" });
    if (msg.pushName) sock.emit("contacts.update", [{ id: msg.key.remoteJid!, notify: msg.pushName }]);
    const r = msg.message?.reactionMessage;
    if (r) sock.emit("messages.reaction", [{ key: r.key!, reaction: { ...r, key: msg.key } }]);
    return msg;
  }

  /** What the runner sent through the connection's sockets, oldest first. */
  sent(whatsappId: number): SentRecord[] {
    return [...(this.phones.get(whatsappId)?.sent ?? [])];
  }

  /** Calls the runner rejected on this connection (`rejectCall`), oldest first. */
  rejectedCalls(whatsappId: number): { callId: string; callFrom: string; at: string }[] {
    return [...(this.phones.get(whatsappId)?.rejectedCalls ?? [])];
  }

  /** Presence updates the runner sent (`sendPresenceUpdate`): "typing…" between a bot's messages. */
  presences(whatsappId: number): { presence: string; jid: string | undefined }[] {
    return [...(this.phones.get(whatsappId)?.presences ?? [])];
  }

  /** Read receipts the runner sent (`readMessages`). */
  reads(whatsappId: number): WAMessageKey[] {
    return [...(this.phones.get(whatsappId)?.reads ?? [])];
  }

  /** Turns automatic receipts on or off for a connection. */
  setAutoReceipts(whatsappId: number, auto: boolean): void {
    this.phone(whatsappId).autoReceipts = auto;
  }

  /** Emits one receipt (`messages.update` with `status`) for a message the runner sent. */
  receipt(whatsappId: number, messageId: string, status: number): void {
    const phone = this.phones.get(whatsappId);
    const msg = phone?.known.get(messageId);
    if (!msg?.key.fromMe) throw new SimError("ERR_NO_MESSAGE_FOUND", "no sent message with this id");
    this.openSocket(whatsappId).emit("messages.update", [{ key: msg.key, update: { status } }]);
  }

  /** Automatic receipts: status 2 (server), 3 (delivered), 4 (read), `receiptDelayMs` apart. */
  scheduleReceipts(whatsappId: number, key: WAMessageKey): void {
    [2, 3, 4].forEach((status, i) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        const s = this.phones.get(whatsappId)?.socket;
        if (s && !s.closed && s.state === "open") s.emit("messages.update", [{ key, update: { status } }]);
      }, this.opts.receiptDelayMs * (i + 1));
      this.timers.add(t);
    });
  }
}

export { SimError };
