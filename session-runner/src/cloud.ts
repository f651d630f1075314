/**
 * The runner as a Fargate task (docs/architecture.md#7-the-session-runner-session-runner): shard leases (acquire/renew every `renewEveryMs`, `leaseTtlMs`
 * expiry), the connections of the leased shards, their FIFO command queues. A lost lease drops that shard's sessions
 * (fencing); `stop()` (SIGTERM) stops taking commands, finishes in-flight ones, ends sockets without logout and
 * releases the leases so the next task takes over at once.
 */
import { writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { getConfig } from "@atende/shared/config";
import { log } from "@atende/shared/log";
import { shardOf } from "@atende/shared/whatsapp/commands";
import { ShardLeases } from "./lease.ts";
import type { Transport } from "./ports.ts";
import { Runner, type RunnerOptions } from "./runner.ts";
import { messageStore } from "./store.ts";
import { baileysTransport } from "./transport/baileys.ts";
import { SimNetwork } from "./transport/simulator.ts";

export interface CloudRunnerOptions {
  owner?: string;
  renewEveryMs?: number;
  leaseTtlMs?: number;
  /** Overrides the transport chosen by `WA_PROVIDER` (tests). */
  transport?: Transport;
  runner?: Partial<RunnerOptions>;
  /**
   * Most shards this task holds (default `RUNNER_MAX_SHARDS`, else every shard). Beyond it a task takes
   * a free shard only when it stayed free for `orphanTicks` ticks (no task under its cap took it).
   */
  maxShards?: number;
  /** Ticks a shard must stay free before a task at its cap takes it anyway. Default 6 (a minute at 10 s ticks). */
  orphanTicks?: number;
  /**
   * Rebalance (default true): each task aims at its fair share, ceil(shards / live tasks) (presence items), and gives
   * up one shard per tick above it, so a new task gets work without a restart of the others.
   */
  rebalance?: boolean;
  /** File touched on every completed tick; the container health check reads its age. Default `RUNNER_HEARTBEAT_FILE`. */
  heartbeatFile?: string;
}

export interface CloudRunner {
  owner: string;
  runner: Runner;
  leases: ShardLeases;
  stop(): Promise<void>;
}

/** Starts a leased runner task. */
export async function startCloudRunner(opts: CloudRunnerOptions = {}): Promise<CloudRunner> {
  const cfg = getConfig();
  const owner = opts.owner ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const leases = new ShardLeases(owner, opts.leaseTtlMs ?? 30_000);
  let network: SimNetwork | undefined;
  let transport = opts.transport;
  if (!transport && cfg.WA_PROVIDER === "baileys") {
    transport = baileysTransport({ epochOf: (wid) => leases.epoch(shardOf(wid)) ?? 0, store: messageStore });
  } else if (!transport) {
    network = new SimNetwork();
    await network.start();
    transport = network.transport();
  }
  const runner = new Runner({
    transport,
    owner,
    shards: () => leases.shards(),
    stillOwner: (ref) => leases.stillOwner(shardOf(ref.whatsappId)),
    ...opts.runner,
  });

  let stopping = false;
  let ticking: Promise<void> | undefined;
  const maxShards = Math.max(1, opts.maxShards ?? cfg.RUNNER_MAX_SHARDS ?? cfg.SESSION_SHARDS);
  const orphanTicks = opts.orphanTicks ?? 6;
  const rebalance = opts.rebalance ?? true;
  const heartbeatFile = opts.heartbeatFile ?? cfg.RUNNER_HEARTBEAT_FILE;
  /** Consecutive ticks each shard was seen free while this task was at its cap. */
  const freeTicks = new Map<number, number>();
  const tick = async () => {
    let cap = maxShards;
    if (rebalance) {
      try {
        cap = Math.min(maxShards, Math.ceil(cfg.SESSION_SHARDS / (await leases.heartbeat())));
      } catch (err) {
        log("warn", "runner heartbeat failed", { owner, err });
      }
    }
    for (let shard = 0; shard < cfg.SESSION_SHARDS && !stopping; shard++) {
      try {
        if (leases.epoch(shard) != null) {
          if ((await leases.renew(shard)) === "lost") {
            log("warn", "shard lease lost", { shard, owner });
            await runner.dropShard(shard);
          }
        } else if (leases.shards().length < cap) {
          if ((await leases.acquire(shard)) != null) {
            freeTicks.delete(shard);
            log("info", "shard lease acquired", { shard, owner, epoch: leases.epoch(shard) });
            await runner.bootShard(shard);
          }
        } else if (await leases.isFree(shard)) {
          // At the cap: a shard nobody under their cap takes is an orphan after `orphanTicks`; serving it beats leaving it.
          const n = (freeTicks.get(shard) ?? 0) + 1;
          freeTicks.set(shard, n);
          if (n >= orphanTicks && (await leases.acquire(shard)) != null) {
            freeTicks.delete(shard);
            log("warn", "orphan shard taken above the cap", { shard, owner, cap });
            await runner.bootShard(shard);
          }
        } else {
          freeTicks.delete(shard);
        }
      } catch (err) {
        log("warn", "lease tick failed", { shard, err });
      }
    }
    // Above the fair share: give one shard back per tick (sessions end without logout; the next task resumes them).
    const held = leases.shards();
    if (rebalance && !stopping && held.length > cap) {
      const shard = held[held.length - 1];
      await runner.dropShard(shard);
      await leases.release(shard).catch((err) => log("warn", "shard release failed", { shard, err }));
      log("info", "shard given back to rebalance", { shard, owner, cap });
    }
    if (heartbeatFile) await writeFile(heartbeatFile, new Date().toISOString()).catch(() => undefined);
  };
  await tick();
  runner.consumer.start();
  runner.startRedrive();
  const timer = setInterval(() => {
    if (!ticking) ticking = tick().finally(() => (ticking = undefined));
  }, opts.renewEveryMs ?? 10_000);
  log("info", "session runner started", { owner, shards: leases.shards(), provider: cfg.WA_PROVIDER });

  return {
    owner,
    runner,
    leases,
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(timer);
      await ticking;
      await runner.stop();
      await network?.stop();
      await Promise.all(leases.shards().map((s) => leases.release(s).catch(() => undefined)));
      await leases.leave().catch(() => undefined);
    },
  };
}
