/**
 * Ports of the session runner (docs/architecture.md#7-the-session-runner-session-runner): what the session manager needs from the outside world, so tests and
 * the two transports (Baileys, simulator) plug in without the manager knowing which one runs.
 */
import type { WASocket } from "@whiskeysockets/baileys";
import type { MessageItem } from "@atende/shared/messages/schema";
import type { SessionStatePatch, WhatsappItem } from "@atende/shared/whatsapp/schema";

/**
 * The part of Baileys' `WASocket` the runner uses. Both adapters return exactly this, typed against Baileys' own
 * declarations, so the runner cannot tell the simulator from the real socket.
 */
export type RunnerSocket = Pick<WASocket, "ev" | "sendMessage" | "readMessages" | "sendPresenceUpdate" | "logout" | "end" | "user" | "updateMediaMessage" | "rejectCall" | "onWhatsApp">;

/** The connection a socket is opened for. */
export interface SessionRef {
  companyId: number;
  whatsappId: number;
}

/** A transport adapter: opens sockets and owns the connection's persisted pairing (auth state). */
export interface Transport {
  readonly name: "simulator" | "baileys";
  /** Opens a socket with the connection's stored auth state (a QR flow when not paired). */
  connect(ref: SessionRef): Promise<RunnerSocket>;
  /** Wipes the connection's auth state (after logout / 401 / 403 / 411, or "new QR"). */
  wipe(ref: SessionRef): Promise<void>;
}

/** What the ingest service answers for one Baileys event (see `shared/src/ingest`). */
export interface IngestResult {
  handled: boolean;
  skipped: { reason: string }[];
}

/** Context the ingest service receives with every event. */
export interface IngestContext {
  companyId: number;
  whatsappId: number;
  /**
   * Opens a message's media with Baileys' `downloadMediaMessage` as a stream (time-limited); null on failure;
   * `{tooLarge, size}` when the announced size passes `maxBytes`. The ingest streams it to S3.
   */
  downloadMedia?: (msg: unknown, maxBytes?: number) => Promise<MediaDownload>;
  /** Rejects a ringing call (Baileys' `rejectCall`); the ingest asks for it when the company does not take calls. */
  rejectCall?: (callId: string, callFrom: string) => Promise<void>;
}

/** A media download: a stream (the runner), small bytes (test fakes), or too large before any byte was read. */
export type MediaDownload = { stream: AsyncIterable<Uint8Array>; mimetype: string } | { bytes: Uint8Array; mimetype: string } | { tooLarge: true; size: number } | null;

/** The ingest port: every Baileys event except `connection.update` and `creds.update` goes through it. */
export type IngestPort = (ctx: IngestContext, event: string, data: unknown) => Promise<IngestResult>;

/** Where session status changes go (`updateSessionState` of the connections service in production). */
export type SessionStatePort = (companyId: number, whatsappId: number, patch: SessionStatePatch) => Promise<WhatsappItem | null>;

/** Stored messages the command handlers read and update (the messages repository in production). */
export interface MessageStorePort {
  getMessage(companyId: number, ticketId: number, messageId: string): Promise<MessageItem | null>;
  updateMessage(companyId: number, ticketId: number, messageId: string, patch: Partial<MessageItem>): Promise<MessageItem>;
  /** Reads the stored media bytes of an outbound message (S3 `mediaKey`). */
  getMedia(key: string): Promise<Buffer>;
  /** Publishes `company-{id}-appMessage` `{action:"update", message}` to whoever may see the ticket. */
  publishMessageUpdate(message: MessageItem): Promise<void>;
  /** `getMessage` for Baileys retries: the stored message content of a WhatsApp message key, if known. */
  findWaMessage(companyId: number, whatsappId: number, remoteJid: string, waId: string): Promise<MessageItem | null>;
}
