/**
 * Bench section `platform` (docs/product/announcements.md#live): one announcement frame to every socket of every
 * company through the platform channel. Registers `sockets` fake sockets spread over `companies` companies (the real
 * `registerSocket` writes), points the management endpoint at a local capture server, then times what the super
 * user's request does (`queuePlatformFrames`: one dispatch job per shard) and how long until every socket has the
 * frame (the local stack's dispatch poller running the shard jobs, each one Query of its shard and its posts), after a
 * warm-up send.
 */
import { resetConfig } from "../../shared/src/config.ts";
import { registerSocket } from "../../shared/src/realtime/connections.ts";
import { queuePlatformFrames } from "../../shared/src/realtime/platform.ts";
import { resetRealtimeClient } from "../../shared/src/realtime/publish.ts";
import { startRealtimeCapture } from "../../shared/src/users/realtime-capture.testkit.ts";

/** Registers the sockets, then sends one platform frame `rounds` times; ms of the request and until delivered, and sockets reached. */
export async function measurePlatformFanout(opts: { companies: number; sockets: number; rounds: number; firstCompanyId: number }) {
  const saved = process.env.WS_MANAGEMENT_ENDPOINT;
  const capture = await startRealtimeCapture();
  try {
    const t0 = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < opts.sockets; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, opts.sockets - i) }, (_, k) => {
          const n = i + k;
          const companyId = opts.firstCompanyId + (n % opts.companies);
          ids.push(companyId);
          return registerSocket(`bench-platform-${n}`, { companyId, userId: 1 + Math.floor(n / opts.companies), profile: "user", super: false, queueIds: [], allTicket: "desabled" });
        }),
      );
    }
    const registerSeconds = (Date.now() - t0) / 1000;
    const frame = { name: "announcement", data: { action: "create", record: { id: 1, title: "Bench", text: "x".repeat(200), priority: 1 } }, audience: { kind: "company" as const } };
    const reachedNow = () => new Set(capture.frames.map((f) => f.connectionId)).size;
    /** Queues the frame (the request's part), then waits until every socket has it (the shard jobs), at most 5 min. */
    const send = async () => {
      capture.clear();
      const s = performance.now();
      await queuePlatformFrames([frame]);
      const request = performance.now() - s;
      while (reachedNow() < opts.sockets && performance.now() - s < 300_000) await new Promise((r) => setTimeout(r, 20));
      return { request, delivered: performance.now() - s, reached: reachedNow() };
    };
    await send();
    const requests: number[] = [];
    const delivered: number[] = [];
    let reached = 0;
    for (let r = 0; r < opts.rounds; r++) {
      const one = await send();
      requests.push(one.request);
      delivered.push(one.delivered);
      reached = one.reached;
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return {
      companies: opts.companies,
      sockets: opts.sockets,
      reached,
      registerSeconds,
      requestMs: Math.round(median(requests)),
      deliveredMs: Math.round(median(delivered)),
      postsPerSecond: Math.round((reached / median(delivered)) * 1000),
    };
  } finally {
    await capture.stop();
    if (saved === undefined) delete process.env.WS_MANAGEMENT_ENDPOINT;
    else process.env.WS_MANAGEMENT_ENDPOINT = saved;
    resetConfig();
    resetRealtimeClient();
  }
}
