/**
 * The runner as a Fargate task (DESIGN.md §7): shard leases (acquire/renew every `renewEveryMs`, `leaseTtlMs`
 * expiry), the connections of the leased shards, their FIFO command queues. A lost lease drops that shard's sessions
 * (fencing); `stop()` (SIGTERM) stops taking commands, finishes in-flight ones, ends sockets without logout and
 * releases the leases so the next task takes over at once.
 */
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
  const tick = async () => {
    for (let shard = 0; shard < cfg.SESSION_SHARDS && !stopping; shard++) {
      try {
        if (leases.epoch(shard) != null) {
          if ((await leases.renew(shard)) === "lost") {
            log("warn", "shard lease lost", { shard, owner });
            await runner.dropShard(shard);
          }
        } else if ((await leases.acquire(shard)) != null) {
          log("info", "shard lease acquired", { shard, owner, epoch: leases.epoch(shard) });
          await runner.bootShard(shard);
        }
      } catch (err) {
        log("warn", "lease tick failed", { shard, err });
      }
    }
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
    },
  };
}
