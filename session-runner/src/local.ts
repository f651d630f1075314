/**
 * The runner on one machine (docs/architecture.md#2-one-machine-npm-start): every shard, no leases (one process), the simulated WhatsApp network
 * unless `WA_PROVIDER=baileys`, and the `/sim` sandbox endpoints for the local gateway. Started by `infra/local`
 * after the SDK points at DynamoDB Local / s3rver / fauxqs and the queues exist.
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "@atende/shared/config";
import type { Transport } from "./ports.ts";
import { Runner } from "./runner.ts";
import { createSimHandler } from "./sim-http.ts";
import { messageStore } from "./store.ts";
import { baileysTransport } from "./transport/baileys.ts";
import { SimNetwork, type SimOptions } from "./transport/simulator.ts";

export interface LocalRunner {
  /** Serves `/sim/...`; resolves false for any other path. */
  handleSim(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  stop(): Promise<void>;
  /** The runner and the simulated network (tests). */
  runner: Runner;
  network: SimNetwork | null;
}

/** Starts the local runner. `opts` tune the simulator and the runner (tests shorten delays). */
export async function startLocalRunner(
  opts: { sim?: SimOptions; runner?: Partial<ConstructorParameters<typeof Runner>[0]> } = {},
): Promise<LocalRunner> {
  const cfg = getConfig();
  const all = Array.from({ length: cfg.SESSION_SHARDS }, (_, n) => n);
  let network: SimNetwork | null = null;
  let transport: Transport;
  if (cfg.WA_PROVIDER === "baileys") {
    transport = baileysTransport({ epochOf: () => 0, store: messageStore });
  } else {
    network = new SimNetwork(opts.sim);
    await network.start();
    transport = network.transport();
  }
  const runner = new Runner({ transport, shards: () => all, consumer: { waitSeconds: 5 }, ...opts.runner });
  await runner.start();
  return {
    handleSim: createSimHandler(network, runner),
    runner,
    network,
    async stop() {
      await runner.stop();
      await network?.stop();
    },
  };
}
