/**
 * Cloud entry of the session runner (Fargate; DESIGN.md §7): holds shard leases (acquire/renew every 10 s, 30 s
 * expiry), runs the connections of its shards and consumes their FIFO command queues. A lost lease drops that
 * shard's sessions (fencing); SIGTERM stops taking commands, finishes in-flight ones, ends sockets without logout and
 * releases the leases before ECS' stop timeout.
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { getConfig } from "@atende/shared/config";
import { log } from "@atende/shared/log";
import { shardOf } from "@atende/shared/whatsapp/commands";
import { ShardLeases } from "./lease.ts";
import { Runner } from "./runner.ts";
import { messageStore } from "./store.ts";
import { baileysTransport } from "./transport/baileys.ts";
import { SimNetwork } from "./transport/simulator.ts";

const RENEW_EVERY_MS = 10_000;

async function main() {
  const cfg = getConfig();
  const owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const leases = new ShardLeases(owner, 30_000);
  let network: SimNetwork | undefined;
  let transport;
  if (cfg.WA_PROVIDER === "baileys") {
    transport = baileysTransport({ epochOf: (wid) => leases.epoch(shardOf(wid)) ?? 0, store: messageStore });
  } else {
    network = new SimNetwork();
    await network.start();
    transport = network.transport();
  }
  const runner = new Runner({
    transport,
    owner,
    shards: () => leases.shards(),
    stillOwner: (ref) => leases.stillOwner(shardOf(ref.whatsappId)),
  });

  let stopping = false;
  const tick = async () => {
    for (let shard = 0; shard < cfg.SESSION_SHARDS && !stopping; shard++) {
      try {
        if (leases.epoch(shard) != null) {
          const r = await leases.renew(shard);
          if (r === "lost") {
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
  const timer = setInterval(() => void tick(), RENEW_EVERY_MS);
  log("info", "session runner started", { owner, shards: leases.shards(), provider: cfg.WA_PROVIDER });

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    log("info", "session runner stopping", { signal });
    await runner.stop();
    await network?.stop();
    await Promise.all(leases.shards().map((s) => leases.release(s).catch(() => undefined)));
    log("info", "session runner stopped", {});
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err) => {
  log("error", "session runner failed to start", { err });
  process.exit(1);
});
