/**
 * Session manager (docs/architecture.md#7-the-session-runner-session-runner): one socket per connection, whichever transport opened it.
 *
 * - `connection.update` drives the connection's status through the session-state port (`updateSessionState`):
 *   QR → `qrcode` (capped: more than `maxQrs` QRs, or Baileys' own 408 while pairing, → DISCONNECTED);
 *   open → CONNECTED with the paired `number`; close → the reconnect table:
 *   401/403/411 wipe the auth state and go DISCONNECTED; 515 reconnects at once; 440 checks the lease and backs off
 *   ≥ 30 s (never loops); 408/428/500/503 and anything else reconnect with exponential backoff and jitter (cap 60 s),
 *   status OPENING with `retries` meanwhile.
 * - `creds.update` is persisted by the transport itself; every other event goes, in order, to the ingest port with
 *   a `downloadMedia` that uses Baileys' `downloadMediaMessage` (time-limited).
 * - {@link Session.mark} / {@link Session.settled} let the sandbox endpoints wait until the events they emitted were handled.
 */
import { Readable } from "node:stream";
import type { Boom } from "@hapi/boom";
import {
  downloadMediaMessage,
  extractMessageContent,
  getContentType,
  jidNormalizedUser,
  type BaileysEventMap,
  type ConnectionState,
  type WAMessage,
} from "@whiskeysockets/baileys";
import pino from "pino";
import { log } from "@atende/shared/log";
import type { SessionStatePatch } from "@atende/shared/whatsapp/schema";
import type { IngestPort, IngestResult, MediaDownload, RunnerSocket, SessionRef, SessionStatePort, Transport } from "./ports.ts";

const silent = pino({ level: "silent" });

export interface SessionManagerOptions {
  transport: Transport;
  ingest: IngestPort;
  setState: SessionStatePort;
  /** Lease check for 440 connectionReplaced: false = another task owns the shard now (fence: drop the session). */
  stillOwner?: (ref: SessionRef) => Promise<boolean>;
  /** QR codes shown per start before giving up (DISCONNECTED). Default 6. */
  maxQrs?: number;
  /** First reconnect delay (ms), doubled per attempt, jittered, capped at `backoffCapMs`. Defaults 1000 / 60000. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Back-off after 440 connectionReplaced (ms, ≥ 30 s in production). Default 30000. */
  replacedBackoffMs?: number;
  /** Time limit of one media download (ms). Default 60000. */
  downloadTimeoutMs?: number;
}

type Phase = "connecting" | "qrcode" | "open" | "waiting" | "stopped";

interface Tracked {
  seq: number;
  done: Promise<IngestResult>;
}

/** One connection's live session. */
export class Session {
  sock: RunnerSocket | undefined;
  phase: Phase = "connecting";
  /** Reconnect attempts since the last open. */
  attempts = 0;
  qrCount = 0;
  /** The QR shown last (while pairing). */
  lastQr = "";
  /** Bumped for every socket; events of an older socket are ignored. */
  generation = 0;
  timer: NodeJS.Timeout | undefined;
  private seq = 0;
  private tracked: Tracked[] = [];
  private ingestChain: Promise<unknown> = Promise.resolve();
  private controlChain: Promise<unknown> = Promise.resolve();
  private waiters: { check: (s: Session) => boolean; resolve: () => void }[] = [];

  constructor(readonly ref: SessionRef) {}

  /** True while the socket is open (commands may send). */
  get isOpen(): boolean {
    return this.phase === "open" && !!this.sock;
  }

  /** True while the session waits to reconnect (a send should be retried later, not failed). */
  get isReconnecting(): boolean {
    return this.phase === "waiting" || (this.phase === "connecting" && this.attempts > 0);
  }

  /** Sequence number of the last event queued; pass it to {@link settled}. */
  mark(): number {
    return this.seq;
  }

  /** Resolves with the results of every event queued after `mark`, once all of them were handled. */
  async settled(mark: number): Promise<IngestResult[]> {
    const items = this.tracked.filter((t) => t.seq > mark);
    return Promise.all(items.map((t) => t.done));
  }

  /** Resolves when `check(session)` holds (re-checked on every status change), or rejects after `timeoutMs`. */
  waitFor(check: (s: Session) => boolean, timeoutMs = 15000): Promise<void> {
    if (check(this)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { check, resolve: () => {
          clearTimeout(t);
          resolve();
        } };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error("session did not reach the expected state in time"));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  notify() {
    const ready = this.waiters.filter((w) => w.check(this));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }

  track(kind: "ingest" | "control", work: () => Promise<IngestResult>): void {
    const seq = ++this.seq;
    const run = async () => {
      try {
        return await work();
      } catch (err) {
        log("error", "session event handling failed", { companyId: this.ref.companyId, whatsappId: this.ref.whatsappId, err });
        return { handled: false, skipped: [{ reason: `error: ${(err as Error).message}` }] };
      }
    };
    const chain = kind === "ingest" ? this.ingestChain : this.controlChain;
    const done = chain.then(run);
    if (kind === "ingest") this.ingestChain = done;
    else this.controlChain = done;
    this.tracked.push({ seq, done });
    if (this.tracked.length > 1000) this.tracked.splice(0, this.tracked.length - 1000);
  }

  /** Resolves when every queued event was handled. */
  async idle(): Promise<void> {
    await Promise.all([this.ingestChain, this.controlChain]);
  }
}

/**
 * Baileys events carry protobuf class instances (decoded `proto.Message`, `Long`); the ingest edge parses plain data
 * with zod. This copies every non-plain object into a plain one of its own enumerable fields (what `JSON` would keep),
 * leaving Buffers/Uint8Arrays, Dates and Errors as they are. Arrays are copied element by element.
 */
export function toPlain(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object" || depth > 64) return value;
  if (value instanceof Uint8Array || value instanceof Date || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((v) => toPlain(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toPlain(v, depth + 1);
  return out;
}

const statusCodeOf = (err: unknown): number | undefined => (err as Boom | undefined)?.output?.statusCode ?? (err as { statusCode?: number })?.statusCode;

/** Runs every session of this process. */
export class SessionManager {
  private sessions = new Map<number, Session>();
  private readonly o: Required<Omit<SessionManagerOptions, "stillOwner">> & Pick<SessionManagerOptions, "stillOwner">;

  constructor(opts: SessionManagerOptions) {
    this.o = {
      maxQrs: 6,
      backoffBaseMs: 1000,
      backoffCapMs: 60000,
      replacedBackoffMs: 30000,
      downloadTimeoutMs: 60000,
      ...opts,
    };
  }

  /** The live session of a connection, if any. */
  get(whatsappId: number): Session | undefined {
    return this.sessions.get(whatsappId);
  }

  /** Every live session. */
  all(): Session[] {
    return [...this.sessions.values()];
  }

  /**
   * Starts a connection's session. A session already running is left as it is, but its state is reported again
   * (the API shows OPENING when asked to start).
   */
  async start(ref: SessionRef): Promise<Session> {
    const existing = this.sessions.get(ref.whatsappId);
    if (existing && existing.phase !== "stopped") {
      if (existing.isOpen) await this.state(ref, { status: "CONNECTED", qrcode: "", retries: 0, ...this.numberOf(existing.sock!) });
      else if (existing.phase === "qrcode" && existing.lastQr) await this.state(ref, { status: "qrcode", qrcode: existing.lastQr, retries: existing.attempts });
      return existing;
    }
    const s = new Session(ref);
    this.sessions.set(ref.whatsappId, s);
    await this.open(s);
    return s;
  }

  /** Ends the socket without logging out and opens it again (auth kept). */
  async restart(ref: SessionRef): Promise<Session> {
    await this.stop(ref.whatsappId);
    return this.start(ref);
  }

  /** Drops the pairing and starts again, so a new QR is shown. */
  async newQr(ref: SessionRef): Promise<Session> {
    await this.stop(ref.whatsappId);
    await this.o.transport.wipe(ref);
    await this.state(ref, { status: "OPENING", qrcode: "", retries: 0 });
    return this.start(ref);
  }

  /** Logs the session out (best effort), wipes the auth state and reports DISCONNECTED. */
  async disconnect(ref: SessionRef): Promise<void> {
    const s = this.sessions.get(ref.whatsappId);
    if (s?.sock) {
      const sock = s.sock;
      this.retire(s);
      await sock.logout().catch(() => undefined);
      await sock.end(undefined).catch(() => undefined);
    } else if (s) {
      this.retire(s);
    }
    await this.o.transport.wipe(ref);
    await this.state(ref, { status: "DISCONNECTED", qrcode: "", retries: 0 });
  }

  /** Ends a session's socket without logout (shutdown, restart). */
  async stop(whatsappId: number): Promise<void> {
    const s = this.sessions.get(whatsappId);
    if (!s) return;
    const sock = s.sock;
    this.retire(s);
    await sock?.end(undefined).catch(() => undefined);
    await s.idle();
  }

  /** Ends every socket without logout and waits for queued events (SIGTERM, tests). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.stop(id)));
  }

  private retire(s: Session) {
    s.phase = "stopped";
    s.generation++;
    clearTimeout(s.timer);
    s.sock = undefined;
    if (this.sessions.get(s.ref.whatsappId) === s) this.sessions.delete(s.ref.whatsappId);
    s.notify();
  }

  private async state(ref: SessionRef, patch: SessionStatePatch) {
    try {
      await this.o.setState(ref.companyId, ref.whatsappId, patch);
    } catch (err) {
      log("error", "session state update failed", { companyId: ref.companyId, whatsappId: ref.whatsappId, err });
    }
  }

  private async open(s: Session): Promise<void> {
    if (s.phase === "stopped") return;
    s.phase = "connecting";
    const gen = ++s.generation;
    let sock: RunnerSocket;
    try {
      sock = await this.o.transport.connect(s.ref);
    } catch (err) {
      log("warn", "socket could not be opened", { companyId: s.ref.companyId, whatsappId: s.ref.whatsappId, err });
      if (gen === s.generation) this.scheduleReconnect(s, statusCodeOf(err));
      return;
    }
    if (gen !== s.generation || (s.phase as Phase) === "stopped") {
      await sock.end(undefined).catch(() => undefined);
      return;
    }
    s.sock = sock;
    sock.ev.process((events) => {
      if (gen !== s.generation) return;
      for (const [name, data] of Object.entries(events) as [keyof BaileysEventMap, unknown][]) {
        if (name === "creds.update") continue;
        if (name === "connection.update") {
          s.track("control", async () => {
            if (gen !== s.generation) return { handled: false, skipped: [{ reason: "stale socket" }] };
            await this.onConnectionUpdate(s, sock, data as Partial<ConnectionState>);
            return { handled: true, skipped: [] };
          });
        } else {
          s.track("ingest", () => this.o.ingest(this.ingestContext(s, sock), name, toPlain(data)));
        }
      }
    });
  }

  /** The ingest context of a connection's open session (its media downloader), for re-driving parked messages. */
  ingestContextOf(whatsappId: number): ReturnType<SessionManager["ingestContext"]> | undefined {
    const s = this.sessions.get(whatsappId);
    return s?.isOpen && s.sock ? this.ingestContext(s, s.sock) : undefined;
  }

  private ingestContext(s: Session, sock: RunnerSocket) {
    return {
      companyId: s.ref.companyId,
      whatsappId: s.ref.whatsappId,
      downloadMedia: (msg: unknown, maxBytes?: number) => this.download(sock, msg as WAMessage, maxBytes),
      rejectCall: (callId: string, callFrom: string) => sock.rejectCall(callId, callFrom),
    };
  }

  /**
   * Opens a message's media with Baileys' `downloadMediaMessage` as a stream: never buffered here; the
   * ingest streams it to S3 and cuts it at `maxBytes`. An announced `fileLength` above `maxBytes` is not downloaded at
   * all (`{tooLarge, size}`). The download opens when the stream is first read (the ingest reads it inside one of
   * the process' media transfer slots, `putMediaStream`); `downloadTimeoutMs` bounds it from then: past it the
   * download is aborted and the stream errors (as it does when the download cannot start).
   */
  private async download(sock: RunnerSocket, msg: WAMessage, maxBytes = Number.POSITIVE_INFINITY): Promise<MediaDownload> {
    const content = extractMessageContent(msg.message);
    const type = getContentType(content ?? undefined);
    const media = type ? ((content as Record<string, { mimetype?: string | null; fileLength?: number | { low: number; high: number } | null } | undefined>)[type] ?? undefined) : undefined;
    const announced = Number(media?.fileLength ?? 0);
    if (announced > maxBytes) return { tooLarge: true, size: announced };
    const timeoutMs = this.o.downloadTimeoutMs;
    // Opened lazily, when the consumer first reads (`putMediaStream` inside one of the process' media transfer
    // slots): a message waiting for a slot holds no connection to the CDN, and the time limit counts from the open.
    async function* open(): AsyncGenerator<Uint8Array> {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(new Error("media download timed out")), timeoutMs);
      try {
        let source: Readable;
        try {
          source = (await downloadMediaMessage(msg, "stream", { options: { signal: abort.signal } }, { logger: silent, reuploadRequest: sock.updateMediaMessage })) as Readable;
        } catch (err) {
          log("warn", "media download failed", { messageId: msg.key?.id, err });
          throw err;
        }
        abort.signal.addEventListener("abort", () => source.destroy(abort.signal.reason as Error), { once: true });
        for await (const chunk of source) yield chunk as Uint8Array;
      } finally {
        clearTimeout(timer);
      }
    }
    return { stream: Readable.from(open(), { objectMode: false }), mimetype: media?.mimetype ?? "application/octet-stream" };
  }

  private async onConnectionUpdate(s: Session, sock: RunnerSocket, u: Partial<ConnectionState>): Promise<void> {
    const ref = s.ref;
    if (u.qr) {
      s.qrCount++;
      if (s.qrCount > this.o.maxQrs) {
        this.retire(s);
        await sock.end(undefined).catch(() => undefined);
        await this.state(ref, { status: "DISCONNECTED", qrcode: "", retries: 0 });
        return;
      }
      s.phase = "qrcode";
      s.lastQr = u.qr;
      await this.state(ref, { status: "qrcode", qrcode: u.qr, retries: s.attempts, number: "" });
      s.notify();
    }
    if (u.connection === "open") {
      s.phase = "open";
      s.qrCount = 0;
      s.attempts = 0;
      s.lastQr = "";
      await this.state(ref, { status: "CONNECTED", qrcode: "", retries: 0, ...this.numberOf(sock) });
      s.notify();
    }
    if (u.connection === "close") {
      if (s.phase === "stopped") return;
      const code = statusCodeOf(u.lastDisconnect?.error);
      const wasPairing = s.phase === "qrcode";
      s.sock = undefined;
      if (code === 401 || code === 403 || code === 411) {
        this.retire(s);
        await this.o.transport.wipe(ref);
        await this.state(ref, { status: "DISCONNECTED", qrcode: "", retries: 0 });
        return;
      }
      if (code === 515) {
        s.generation++;
        await this.open(s);
        return;
      }
      if (code === 408 && wasPairing) {
        // Baileys ran out of QR refs: nobody scanned; wait for "try again" / "new QR".
        this.retire(s);
        await this.state(ref, { status: "DISCONNECTED", qrcode: "", retries: 0 });
        return;
      }
      if (code === 440) {
        if (this.o.stillOwner && !(await this.o.stillOwner(ref))) {
          this.retire(s);
          return;
        }
        this.scheduleReconnect(s, code, this.o.replacedBackoffMs);
        await this.state(ref, { status: "OPENING", retries: s.attempts });
        return;
      }
      this.scheduleReconnect(s, code);
      await this.state(ref, { status: "OPENING", retries: s.attempts });
    }
  }

  /** `{number}` (digits of the paired JID) when the socket knows its user. */
  private numberOf(sock: RunnerSocket): { number?: string } {
    return sock.user?.id ? { number: jidNormalizedUser(sock.user.id).split("@")[0] } : {};
  }

  private scheduleReconnect(s: Session, code: number | undefined, minDelayMs = 0) {
    if (s.phase === "stopped") return;
    s.attempts++;
    s.phase = "waiting";
    s.generation++;
    const exp = Math.min(this.o.backoffCapMs, this.o.backoffBaseMs * 2 ** (s.attempts - 1));
    const delay = Math.max(minDelayMs, Math.round(exp / 2 + Math.random() * (exp / 2)));
    log("info", "session reconnect scheduled", { companyId: s.ref.companyId, whatsappId: s.ref.whatsappId, code, delayMs: delay });
    clearTimeout(s.timer);
    s.timer = setTimeout(() => void this.open(s), delay);
    s.notify();
  }
}
