/**
 * Runner tasks with shard leases (docs/architecture.md#7-the-session-runner-session-runner): one task owns the shards; on its graceful stop (SIGTERM) the leases
 * are released and the next task resumes the paired sessions without a new QR and takes the commands.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendSessionCommand } from "@atende/shared/whatsapp/commands";
import { getWhatsappItem } from "@atende/shared/whatsapp/repository";
import { createWhatsapp } from "@atende/shared/whatsapp/service";
import { companyWorld } from "../../test/world.ts";
import { startCloudRunner, type CloudRunner } from "./cloud.ts";
import { memoryStore, recordingIngest } from "./testing/fakes.ts";
import { eventually, startQueues, type Queues } from "./testing/harness.ts";
import { SimNetwork } from "./transport/simulator.ts";

const companies = companyWorld({ capture: false });

let queues: Queues;
let network: SimNetwork;
const tasks: CloudRunner[] = [];

beforeAll(async () => {
  queues = await startQueues();
  network = new SimNetwork({ receiptDelayMs: 20 });
  await network.start();
});
afterAll(async () => {
  for (const t of tasks) await t.stop();
  await network.stop();
  await queues.stop();
});

describe("leased runner tasks", () => {
  it("hands every shard and its sessions to the next task on a graceful stop", async () => {
    const mem = memoryStore();
    const task = (owner: string) =>
      startCloudRunner({
        owner,
        renewEveryMs: 100,
        leaseTtlMs: 60_000,
        // This test is about the hand-over alone: the first task keeps every shard while the second waits.
        rebalance: false,
        transport: network.transport(),
        runner: {
          store: mem.store,
          ingest: recordingIngest().port,
          consumer: { waitSeconds: 1, visibilitySeconds: 5, retryDelaySeconds: 1 },
          sessions: { backoffBaseMs: 20, backoffCapMs: 200 },
        },
      }).then((t) => {
        tasks.push(t);
        return t;
      });

    const a = await task("task-a");
    const b = await task("task-b");
    expect(a.leases.shards()).toHaveLength(16);
    expect(b.leases.shards()).toEqual([]);

    const { cid: companyId } = await companies.fresh();
    const w = await createWhatsapp({ companyId, admin: true }, { name: "Central" });
    await eventually(() => network.currentQr(w.id));
    await network.scan(w.id, "5511955554444");
    await eventually(() => a.runner.sessions.get(w.id)?.isOpen);

    const first = mem.add(companyId, w.id, "antes");
    await sendSessionCommand({ type: "send", companyId, whatsappId: w.id, ticketId: 1, messageId: first.id });
    await eventually(() => network.sent(w.id).length === 1);

    await a.stop();
    expect(a.leases.shards()).toEqual([]);
    await eventually(() => b.leases.shards().length === 16);
    await eventually(() => b.runner.sessions.get(w.id)?.isOpen);
    expect((await getWhatsappItem(companyId, w.id))?.status).toBe("CONNECTED");

    const second = mem.add(companyId, w.id, "depois");
    await sendSessionCommand({ type: "send", companyId, whatsappId: w.id, ticketId: 1, messageId: second.id });
    await eventually(() => network.sent(w.id).length === 2);
    expect(network.sent(w.id).map((s) => s.id)).toEqual([first.id, second.id]);
  });

  it("shares the shards between tasks: a new task gets its fair share without a restart, and a lone task takes the orphans", async () => {
    for (const t of tasks.splice(0)) await t.stop();
    const task = (owner: string, maxShards?: number) =>
      startCloudRunner({
        owner,
        renewEveryMs: 100,
        leaseTtlMs: 60_000,
        maxShards,
        // Shards freed by rebalancing go to the task under its share; only the last step relies on orphan takeover.
        orphanTicks: 20,
        transport: network.transport(),
        runner: { store: memoryStore().store, ingest: recordingIngest().port, consumer: { waitSeconds: 1, visibilitySeconds: 5, retryDelaySeconds: 1 } },
      }).then((t) => {
        tasks.push(t);
        return t;
      });

    const a = await task("share-a");
    expect(a.leases.shards()).toHaveLength(16);
    const b = await task("share-b");
    // The first task gives shards back, one per tick, down to ceil(16 / 2); the second takes them.
    await eventually(() => a.leases.shards().length === 8 && b.leases.shards().length === 8, 60_000);
    expect(new Set([...a.leases.shards(), ...b.leases.shards()]).size).toBe(16);

    // A third task capped at 4 while only two others share: it stays within its cap.
    const c = await task("share-c", 4);
    await eventually(() => c.leases.shards().length === 4, 60_000);
    await a.stop();
    await c.stop();
    // Alone, the last task takes every shard back (the freed ones are orphans once nobody else is alive).
    await eventually(() => b.leases.shards().length === 16, 60_000);
  }, 240_000);
});
