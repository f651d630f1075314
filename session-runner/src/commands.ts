/**
 * Session commands in the runner (docs/architecture.md#7-the-session-runner-session-runner): the FIFO shard queues are long-polled with
 * `@aws-sdk/client-sqs`; each command is parsed with zod and run at most once to completion:
 * `CMD#<commandId>` is claimed PROCESSING (conditional put with owner and claim expiry), then marked DONE with its
 * result; a redelivered DONE command is acknowledged without acting again, one still PROCESSING under a live claim is
 * left for later. A command leaves the queue only after DONE, so a runner killed mid-burst loses nothing: the
 * messages come back after their visibility timeout and the next owner completes them.
 */
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, type Message } from "@aws-sdk/client-sqs";
import type { AnyMessageContent, WAMessage } from "@whiskeysockets/baileys";
import { CHECK_PACE_MS, recordWhatsappChecks } from "@atende/shared/contactLists/whatsapp-check";
import { whatsappSpellings } from "@atende/shared/contactLists/phone";
import { log } from "@atende/shared/log";
import type { MessageItem } from "@atende/shared/messages/schema";
import { sqsClient } from "@atende/shared/sqs/enqueue";
import { commandQueueUrl, SessionCommand } from "@atende/shared/whatsapp/commands";
import type { MessageStorePort } from "./ports.ts";
import type { SessionManager } from "./sessions.ts";
import { claimCommandDetailed, completeCommand, markSending, releaseCommand } from "./command-claims.ts";

import { NotInitialized, RetryLater } from "./errors.ts";
export { RetryLater };
export { type Claim, claimCommand, claimCommandDetailed, completeCommand, markSending, releaseCommand } from "./command-claims.ts";

/**
 * Visibility (s) a command gets after its `receiveCount`-th receive ended in a retryable failure:
 * `baseSeconds`·2^(receiveCount-1), at least `retryAfterSeconds`, capped at SQS's 12 h. With the defaults (15 s,
 * 5 receives) a command outlives 7½ minutes of reconnecting before its DLQ marks the message failed.
 */
export function retryVisibility(receiveCount: number, baseSeconds: number, retryAfterSeconds = 0): number {
  const backoff = baseSeconds * 2 ** Math.max(0, receiveCount - 1);
  return Math.min(43_200, Math.ceil(Math.max(backoff, retryAfterSeconds)));
}

export interface CommandHandlerOptions {
  sessions: SessionManager;
  store: MessageStorePort;
  /** This runner's identity (task id + incarnation). */
  owner: string;
  /** How long a claim protects a command being handled (ms). Default 120000. */
  claimMs?: number;
  /** Pause after each batch of a WhatsApp number check (ms). Default `CHECK_PACE_MS`. */
  checkPaceMs?: number;
}

const jidOf = (m: MessageItem) => m.remoteJid;

/** Runs session commands idempotently against the session manager and the message store. */
export class CommandHandler {
  private readonly claimMs: number;
  private readonly checkPaceMs: number;
  constructor(private readonly o: CommandHandlerOptions) {
    this.claimMs = o.claimMs ?? 120000;
    this.checkPaceMs = o.checkPaceMs ?? CHECK_PACE_MS;
  }

  /**
   * Handles one command. Resolves when it is DONE (now or before): the caller may delete it from the queue.
   * Throws {@link RetryLater} (or any error) when it must stay in the queue.
   */
  async handle(cmd: SessionCommand): Promise<"done" | "duplicate"> {
    const c = await claimCommandDetailed(cmd.commandId, this.o.owner, this.claimMs);
    if (c.claim === "done") return "duplicate";
    if (c.claim === "busy") {
      // Retry once the other owner's claim has expired (a dead runner's claim is then taken over).
      throw new RetryLater("command is being handled by another owner", Math.max(1, ((c.claimUntil ?? Date.now()) - Date.now()) / 1000 + 1));
    }
    try {
      const result = cmd.type === "send" && c.takenOver && c.stage === "sending" ? await this.afterDeadSend(cmd) : await this.run(cmd);
      await completeCommand(cmd.commandId, result);
      return "done";
    } catch (err) {
      await releaseCommand(cmd.commandId, this.o.owner).catch(() => undefined);
      throw err;
    }
  }

  private async run(cmd: SessionCommand): Promise<Record<string, unknown>> {
    const ref = { companyId: cmd.companyId, whatsappId: cmd.whatsappId };
    const sessions = this.o.sessions;
    switch (cmd.type) {
      case "start":
        await sessions.start(ref);
        return {};
      case "restart":
        await sessions.restart(ref);
        return {};
      case "newQr":
        await sessions.newQr(ref);
        return {};
      case "disconnect":
        await sessions.disconnect(ref);
        return {};
      case "send":
        return this.send(cmd);
      case "edit":
      case "delete":
      case "react": {
        const m = await this.o.store.getMessage(cmd.companyId, cmd.ticketId, cmd.messageId);
        if (!m) return { skipped: "ERR_NO_MESSAGE_FOUND" };
        const key = { remoteJid: jidOf(m), fromMe: m.fromMe, id: m.id, ...(m.participant ? { participant: m.participant } : {}) };
        const content: AnyMessageContent =
          cmd.type === "edit" ? { text: cmd.body, edit: key } : cmd.type === "delete" ? { delete: key } : { react: { text: cmd.emoji, key } };
        const sent = await this.socketFor(ref).sendMessage(jidOf(m), content);
        return { waId: sent?.key.id ?? null };
      }
      case "read": {
        await this.socketFor(ref).readMessages(cmd.messageIds.map((id) => ({ remoteJid: cmd.remoteJid, id, fromMe: false })));
        return {};
      }
      case "checkNumbers":
        return this.checkNumbers(cmd);
      case "checkNumber":
        return this.checkNumber(ref, cmd.number);
      case "presence": {
        await this.socketFor(ref).sendPresenceUpdate(cmd.presence, cmd.remoteJid);
        return {};
      }
    }
  }

  /**
   * A send whose previous owner died after handing it to WhatsApp: whether it left is unknown. Sending again could
   * deliver it twice, so it is not resent: a receipt already seen (ack ≥ 1) means it was sent; otherwise the message
   * is marked failed (the agent sees it and may retry), so it is never stuck at ack 0.
   */
  private async afterDeadSend(cmd: Extract<SessionCommand, { type: "send" }>): Promise<Record<string, unknown>> {
    const m = await this.o.store.getMessage(cmd.companyId, cmd.ticketId, cmd.messageId);
    if (!m) return { skipped: "ERR_NO_MESSAGE_FOUND" };
    if (m.ack !== 0) return { waId: m.id, alreadySent: m.ack > 0 };
    await this.fail(m, "ERR_SENDING_WAPP_MSG");
    return { failed: "ERR_SENDING_WAPP_MSG", outcomeUnknown: true };
  }

  /**
   * Asks WhatsApp which of a contact list batch's numbers have an account (each number and, for a Brazilian mobile,
   * its spelling without the ninth digit), records the answers, then waits the check's pace so a connection never asks
   * in bursts. A connection that is not running answers nothing (the items stay unchecked).
   */
  private async checkNumbers(cmd: Extract<SessionCommand, { type: "checkNumbers" }>): Promise<Record<string, unknown>> {
    let sock: ReturnType<typeof this.socketFor>;
    try {
      sock = this.socketFor(cmd);
    } catch (err) {
      if (err instanceof NotInitialized) return { skipped: "ERR_WAPP_NOT_INITIALIZED" };
      throw err;
    }
    const spellings = cmd.items.map((it) => whatsappSpellings(it.number));
    const answers = (await sock.onWhatsApp(...spellings.flat())) ?? [];
    const found = new Set(answers.filter((a) => a.exists).map((a) => a.jid.split("@")[0]));
    const results = cmd.items.map((it, i) => ({ id: it.id, valid: spellings[i]!.some((n) => found.has(n)) }));
    await recordWhatsappChecks(cmd.companyId, cmd.contactListId, results);
    await new Promise((r) => setTimeout(r, this.checkPaceMs));
    return { checked: results.length, valid: results.filter((r) => r.valid).length };
  }

  /**
   * Asks WhatsApp whether `number` has an account under any of its spellings: `{exists, jid}` (the JID WhatsApp knows
   * it by), or `{error}` when the session is not open.
   */
  private async checkNumber(ref: { companyId: number; whatsappId: number }, number: string): Promise<Record<string, unknown>> {
    let sock: ReturnType<typeof this.socketFor>;
    try {
      sock = this.socketFor(ref);
    } catch (err) {
      if (err instanceof NotInitialized) return { error: "ERR_WAPP_NOT_INITIALIZED" };
      throw err;
    }
    // As the contact lists' check: a Brazilian mobile is also asked without its ninth digit, and the spelling typed
    // wins when WhatsApp knows both.
    const spellings = whatsappSpellings(number);
    const answers = (await sock.onWhatsApp(...spellings)) ?? [];
    const found = spellings.map((n) => answers.find((a) => a.exists && a.jid.split("@")[0] === n)).find(Boolean);
    return { exists: !!found, jid: found ? found.jid : null };
  }

  private socketFor(ref: { companyId: number; whatsappId: number }) {
    const s = this.o.sessions.get(ref.whatsappId);
    if (s?.isOpen && s.sock) return s.sock;
    if (s?.isReconnecting || s?.phase === "connecting") throw new RetryLater("session is reconnecting");
    throw new NotInitialized();
  }

  /** Sends a stored outbound message with `messageId` = its stored id; sets ack 1, or -1 with `sendError`. */
  private async send(cmd: Extract<SessionCommand, { type: "send" }>): Promise<Record<string, unknown>> {
    const store = this.o.store;
    const m = await store.getMessage(cmd.companyId, cmd.ticketId, cmd.messageId);
    if (!m) return { skipped: "ERR_NO_MESSAGE_FOUND" };
    if (m.ack !== 0) return { waId: m.id, alreadySent: true };
    let sock: ReturnType<typeof this.socketFor>;
    try {
      sock = this.socketFor(cmd);
    } catch (err) {
      if (err instanceof NotInitialized) {
        await this.fail(m, "ERR_WAPP_NOT_INITIALIZED");
        return { failed: "ERR_WAPP_NOT_INITIALIZED" };
      }
      throw err;
    }
    const content = await this.contentOf(m);
    let quoted: WAMessage | undefined;
    if (m.quotedMsgId) {
      const q = await store.getMessage(cmd.companyId, cmd.ticketId, m.quotedMsgId);
      if (q) quoted = { key: { remoteJid: q.remoteJid, fromMe: q.fromMe, id: q.id, ...(q.participant ? { participant: q.participant } : {}) }, message: { conversation: q.body } };
    }
    await markSending(cmd.commandId, this.o.owner);
    try {
      const sent = await sock.sendMessage(jidOf(m), content, { messageId: m.id, ...(quoted ? { quoted } : {}) });
      const current = await store.getMessage(cmd.companyId, cmd.ticketId, m.id);
      if (current && current.ack < 1) {
        const updated = await store.updateMessage(cmd.companyId, cmd.ticketId, m.id, { ack: 1, sendError: null });
        await store.publishMessageUpdate(updated);
      }
      return { waId: sent?.key.id ?? m.id };
    } catch (err) {
      const code = (err as { output?: { statusCode?: number } }).output?.statusCode;
      if (code === 428 || code === 408 || code === 503) throw new RetryLater(`send interrupted (${code})`);
      await this.fail(m, "ERR_SENDING_WAPP_MSG");
      return { failed: "ERR_SENDING_WAPP_MSG" };
    }
  }

  private async fail(m: MessageItem, code: string) {
    const updated = await this.o.store.updateMessage(m.companyId, m.ticketId, m.id, { ack: -1, sendError: code });
    await this.o.store.publishMessageUpdate(updated);
  }

  /** The `AnyMessageContent` of a stored message: its text, or its media from S3 with caption / file name. */
  private async contentOf(m: MessageItem): Promise<AnyMessageContent> {
    if (!m.mediaKey) return { text: m.body };
    const bytes = await this.o.store.getMedia(m.mediaKey);
    const mimetype = m.mediaMime ?? "application/octet-stream";
    const caption = m.body || undefined;
    switch (m.mediaType) {
      case "image":
        return { image: bytes, mimetype, caption };
      case "video":
        return { video: bytes, mimetype, caption };
      case "audio":
        return { audio: bytes, mimetype, ptt: /audio-record|\.ogg$|opus/i.test(`${m.mediaName ?? ""} ${mimetype}`) };
      case "sticker":
        return { sticker: bytes, mimetype };
      default:
        return { document: bytes, mimetype, fileName: m.mediaName ?? "file", caption };
    }
  }
}

export interface ConsumerOptions {
  handler: CommandHandler;
  /** Shards whose queues this consumer polls. */
  shards: () => number[];
  /** Long-poll wait (s). Default 20. */
  waitSeconds?: number;
  /** Visibility timeout given to received commands, extended while a command runs (s). Default 60. */
  visibilitySeconds?: number;
  /** First visibility after a retryable failure (s), doubled per receive ({@link retryVisibility}). Default 15. */
  retryDelaySeconds?: number;
}

/**
 * Long-polls the shard FIFO queues. Within a batch, commands of one connection (MessageGroupId) run in order; a
 * failure stops the rest of that group (made visible again) so order is kept. Deleted only after DONE.
 */
export class CommandConsumer {
  private running = false;
  private killed = false;
  /** One per polling loop: the long polls of all shards sharing one signal put one abort listener each on it. */
  private aborts = new Map<number, AbortController>();
  private loops = new Map<number, Promise<void>>();
  private inFlight = new Set<Promise<unknown>>();

  constructor(private readonly o: ConsumerOptions) {}

  /** Starts one polling loop per shard returned by `shards()` (call again after leases change). */
  start(): void {
    this.running = true;
    for (const shard of this.o.shards()) {
      if (this.loops.has(shard)) continue;
      const abort = new AbortController();
      this.aborts.set(shard, abort);
      const loop = this.poll(shard, abort.signal).finally(() => {
        this.loops.delete(shard);
        this.aborts.delete(shard);
      });
      this.loops.set(shard, loop);
    }
  }

  /** Graceful stop (SIGTERM): stop receiving, let in-flight commands finish (and be deleted). */
  async stop(): Promise<void> {
    this.running = false;
    for (const abort of this.aborts.values()) abort.abort();
    await Promise.allSettled([...this.loops.values()]);
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Abrupt stop, as if the process died: stop receiving and never delete anything again. Commands in flight stay in
   * the queue and come back after their visibility timeout.
   */
  async kill(): Promise<void> {
    this.killed = true;
    await this.stop();
  }

  private async poll(shard: number, signal: AbortSignal): Promise<void> {
    const url = commandQueueUrl(shard);
    while (this.running && this.o.shards().includes(shard)) {
      let messages: Message[] = [];
      try {
        const out = await sqsClient().send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: this.o.waitSeconds ?? 20,
            VisibilityTimeout: this.o.visibilitySeconds ?? 60,
            AttributeNames: ["All"],
            MessageSystemAttributeNames: ["MessageGroupId", "ApproximateReceiveCount"],
          }),
          { abortSignal: signal },
        );
        messages = out.Messages ?? [];
      } catch (err) {
        if (!this.running) return;
        log("warn", "command queue receive failed", { shard, err });
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (this.killed) return;
      const groups = new Map<string, Message[]>();
      for (const m of messages) {
        const g = m.Attributes?.MessageGroupId ?? "";
        groups.set(g, [...(groups.get(g) ?? []), m]);
      }
      const work = Promise.all([...groups.values()].map((list) => this.runGroup(url, list)));
      this.inFlight.add(work);
      await work.finally(() => this.inFlight.delete(work));
    }
  }

  private async runGroup(url: string, list: Message[]): Promise<void> {
    for (let i = 0; i < list.length; i++) {
      const m = list[i];
      if (this.killed) return;
      let cmd: SessionCommand;
      try {
        cmd = SessionCommand.parse(JSON.parse(m.Body ?? ""));
      } catch (err) {
        log("error", "invalid session command dropped", { messageId: m.MessageId, err });
        await this.delete(url, m);
        continue;
      }
      const heartbeat = setInterval(() => {
        void sqsClient()
          .send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: this.o.visibilitySeconds ?? 60 }))
          .catch(() => undefined);
      }, ((this.o.visibilitySeconds ?? 60) * 1000) / 2);
      try {
        await this.o.handler.handle(cmd);
        clearInterval(heartbeat);
        await this.delete(url, m);
      } catch (err) {
        clearInterval(heartbeat);
        if (this.killed) return;
        const retry = err instanceof RetryLater;
        log(retry ? "info" : "error", "session command will be retried", { commandId: cmd.commandId, type: cmd.type, whatsappId: cmd.whatsappId, err });
        const receives = Number(m.Attributes?.ApproximateReceiveCount ?? 1) || 1;
        await this.setVisibility(url, m, retryVisibility(receives, this.o.retryDelaySeconds ?? 15, retry ? (err as RetryLater).retryAfterSeconds : 0));
        for (const rest of list.slice(i + 1)) await this.setVisibility(url, rest, 0);
        return;
      }
    }
  }

  private async delete(url: string, m: Message) {
    if (this.killed) return;
    await sqsClient()
      .send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }))
      .catch((err) => log("warn", "command delete failed", { err }));
  }

  private async setVisibility(url: string, m: Message, seconds: number) {
    await sqsClient()
      .send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: seconds }))
      .catch(() => undefined);
  }
}
