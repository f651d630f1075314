/**
 * The session runner assembled (docs/architecture.md#7-the-session-runner-session-runner): session manager + idempotent command handler + shard queue consumer,
 * with the ingest, message-store and session-state ports defaulting to the `shared` services. Used by `local.ts`
 * (one machine, every shard, simulator by default) and `main.ts` (Fargate, leased shards).
 */
import { randomUUID } from "node:crypto";
import { handleBaileysEvent, redriveParked } from "@atende/shared/ingest/index";
import { log } from "@atende/shared/log";
import { shardOf } from "@atende/shared/whatsapp/commands";
import { listShardWhatsappItems } from "@atende/shared/whatsapp/repository";
import { updateSessionState } from "@atende/shared/whatsapp/service";
import { CommandConsumer, CommandHandler, type ConsumerOptions } from "./commands.ts";
import type { IngestPort, MessageStorePort, SessionRef, SessionStatePort, Transport } from "./ports.ts";
import { SessionManager, type SessionManagerOptions } from "./sessions.ts";
import { messageStore } from "./store.ts";

export interface RunnerOptions {
  transport: Transport;
  /** Shards this runner serves now (all of them locally; the leased ones in the cloud). */
  shards: () => number[];
  ingest?: IngestPort;
  store?: MessageStorePort;
  setState?: SessionStatePort;
  stillOwner?: (ref: SessionRef) => Promise<boolean>;
  /** Identity used for command claims. Default a random id. */
  owner?: string;
  consumer?: Partial<Omit<ConsumerOptions, "handler" | "shards">>;
  sessions?: Partial<Omit<SessionManagerOptions, "transport" | "ingest" | "setState" | "stillOwner">>;
  /** How long a command claim protects a command being handled (ms). */
  claimMs?: number;
  /**
   * Re-drives the parked inbound messages of the served shards; default `redriveParked` of the ingest
   * service, `false` to turn it off (tests with a fake ingest port). Runs every `redriveEveryMs` (default 30000).
   */
  redrive?: typeof redriveParked | false;
  redriveEveryMs?: number;
}

/** One runner process. */
export class Runner {
  readonly sessions: SessionManager;
  readonly handler: CommandHandler;
  readonly consumer: CommandConsumer;
  readonly owner: string;
  private redriveTimer: NodeJS.Timeout | undefined;
  private redriving: Promise<unknown> | undefined;

  constructor(private readonly o: RunnerOptions) {
    this.owner = o.owner ?? `runner-${randomUUID()}`;
    this.sessions = new SessionManager({
      transport: o.transport,
      ingest: o.ingest ?? handleBaileysEvent,
      setState: o.setState ?? updateSessionState,
      stillOwner: o.stillOwner,
      ...o.sessions,
    });
    this.handler = new CommandHandler({ sessions: this.sessions, store: o.store ?? messageStore, owner: this.owner, claimMs: o.claimMs });
    this.consumer = new CommandConsumer({ handler: this.handler, shards: o.shards, ...o.consumer });
  }

  /** Resumes the sessions of every served shard and starts consuming their command queues. */
  async start(): Promise<void> {
    for (const shard of this.o.shards()) await this.bootShard(shard);
    this.consumer.start();
    this.startRedrive();
  }

  /** Starts the periodic re-drive of parked inbound messages (idempotent; off when `redrive: false`). */
  startRedrive(): void {
    const redrive = this.o.redrive ?? (this.o.ingest ? false : redriveParked);
    if (!redrive || this.redriveTimer) return;
    this.redriveTimer = setInterval(() => void this.redriveNow(), this.o.redriveEveryMs ?? 30_000);
    this.redriveTimer.unref();
  }

  /**
   * Re-drives now the parked inbound messages of the served shards that are due at `now` (ms epoch; default the
   * clock), with the live session's media downloader when there is one. One pass at a time; never throws.
   */
  async redriveNow(now?: number): Promise<unknown> {
    const redrive = this.o.redrive ?? (this.o.ingest ? false : redriveParked);
    if (!redrive) return undefined;
    await this.redriving;
    this.redriving = redrive({ shards: this.o.shards(), now, contextFor: (_cid, wid) => this.sessions.ingestContextOf(wid) })
      .then((c) => {
        // `backlog`: parked messages still waiting after this pass (the CDK alarm reads it from this line).
        if (c.stored || c.rescheduled || c.dead || c.held) log("info", "inbound re-drive", { ...c, backlog: c.rescheduled + c.held });
        return c;
      })
      .catch((err) => log("warn", "inbound re-drive failed", { err }))
      .finally(() => (this.redriving = undefined));
    return this.redriving;
  }

  private stopRedrive() {
    clearInterval(this.redriveTimer);
    this.redriveTimer = undefined;
  }

  /** Starts every connection of a shard that is not DISCONNECTED (paired ones reopen without a QR). */
  async bootShard(shard: number): Promise<void> {
    const items = await listShardWhatsappItems(shard);
    for (const w of items) {
      if (w.status === "DISCONNECTED") continue;
      await this.sessions.start({ companyId: w.companyId, whatsappId: w.id }).catch((err) => log("error", "session boot failed", { whatsappId: w.id, err }));
    }
    this.consumer.start();
  }

  /** Ends (without logout) the sessions of a shard this runner no longer owns. */
  async dropShard(shard: number): Promise<void> {
    await Promise.all(this.sessions.all().filter((s) => shardOf(s.ref.whatsappId) === shard).map((s) => this.sessions.stop(s.ref.whatsappId)));
  }

  /** Graceful stop: no new commands, in-flight ones finish, sockets end without logout. */
  async stop(): Promise<void> {
    this.stopRedrive();
    await this.redriving;
    await this.consumer.stop();
    await this.sessions.stopAll();
  }

  /** Abrupt stop, as if the process died mid-work (tests): nothing more is acknowledged. */
  async kill(): Promise<void> {
    this.stopRedrive();
    await this.consumer.kill();
    await this.sessions.stopAll();
  }
}
