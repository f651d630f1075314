/**
 * The session manager's reconnect table and QR cap (docs/architecture.md#7-the-session-runner-session-runner), on the simulated network with a recording
 * session-state port (no queue involved).
 */
import { afterEach, describe, expect, it } from "vitest";
import { Boom } from "@hapi/boom";
import type { SessionStatePatch } from "@atende/shared/whatsapp/schema";
import { SessionManager, type SessionManagerOptions } from "./sessions.ts";
import { SimNetwork } from "./transport/simulator.ts";
import { eventually } from "./testing/harness.ts";

let nextWid = 7000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(opts: Partial<SessionManagerOptions> = {}, sim: ConstructorParameters<typeof SimNetwork>[0] = {}) {
  const network = new SimNetwork(sim);
  await network.start();
  const states: SessionStatePatch[] = [];
  const manager = new SessionManager({
    transport: network.transport(),
    ingest: async () => ({ handled: true, skipped: [] }),
    setState: async (_c, _w, patch) => {
      states.push(patch);
      return null;
    },
    backoffBaseMs: 10,
    backoffCapMs: 50,
    ...opts,
  });
  cleanups.push(async () => {
    await manager.stopAll();
    await network.stop();
  });
  const ref = { companyId: 1, whatsappId: nextWid++ };
  return { network, manager, states, ref };
}

const close = (statusCode: number) => ({ connection: "close" as const, lastDisconnect: { error: new Boom("x", { statusCode }), date: new Date() } });

describe("session manager", () => {
  it("gives up with DISCONNECTED when nobody scans the QR codes", async () => {
    const { manager, states, ref } = await setup({}, { qrIntervalMs: 20, maxQrs: 3 });
    await manager.start(ref);
    await eventually(() => states.at(-1)?.status === "DISCONNECTED");
    expect(states.filter((s) => s.status === "qrcode")).toHaveLength(3);
    expect(manager.get(ref.whatsappId)).toBeUndefined();
  });

  it("stops showing QR codes after its own cap even when the transport keeps sending them", async () => {
    const { manager, states, ref } = await setup({ maxQrs: 2 }, { qrIntervalMs: 20, maxQrs: 10 });
    await manager.start(ref);
    await eventually(() => states.at(-1)?.status === "DISCONNECTED");
    expect(states.filter((s) => s.status === "qrcode")).toHaveLength(2);
  });

  it("drops the session without reconnecting when another task took the shard (440, lease lost)", async () => {
    const { network, manager, states, ref } = await setup({ stillOwner: async () => false });
    const s = await manager.start(ref);
    await eventually(() => network.currentQr(ref.whatsappId));
    await network.scan(ref.whatsappId, "5511911112222");
    await s.waitFor((x) => x.isOpen);
    const before = states.length;
    network.emit(ref.whatsappId, "connection.update", close(440));
    await s.idle();
    expect(manager.get(ref.whatsappId)).toBeUndefined();
    expect(states.slice(before)).toEqual([]);
  });

  it("backs off and reconnects after 440 while it still holds the lease, showing OPENING meanwhile", async () => {
    const { network, manager, states, ref } = await setup({ stillOwner: async () => true, replacedBackoffMs: 100 });
    const s = await manager.start(ref);
    await eventually(() => network.currentQr(ref.whatsappId));
    await network.scan(ref.whatsappId, "5511911113333");
    await s.waitFor((x) => x.isOpen);
    network.emit(ref.whatsappId, "connection.update", close(440));
    await s.waitFor((x) => x.phase === "waiting");
    expect(states.at(-1)).toMatchObject({ status: "OPENING", retries: 1 });
    await s.waitFor((x) => x.isOpen);
    expect(states.at(-1)).toMatchObject({ status: "CONNECTED", number: "5511911113333", retries: 0 });
  });

  it("reconnects with backoff after transient closes (408, 500, 503) and keeps the pairing", async () => {
    const { network, manager, states, ref } = await setup();
    const s = await manager.start(ref);
    await eventually(() => network.currentQr(ref.whatsappId));
    await network.scan(ref.whatsappId, "5511911114444");
    await s.waitFor((x) => x.isOpen);
    for (const code of [408, 500, 503]) {
      network.emit(ref.whatsappId, "connection.update", close(code));
      await s.waitFor((x) => !x.isOpen);
      await s.waitFor((x) => x.isOpen);
    }
    expect(states.filter((x) => x.status === "OPENING").length).toBe(3);
    expect(states.at(-1)).toMatchObject({ status: "CONNECTED", number: "5511911114444" });
  });
});
