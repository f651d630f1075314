/**
 * Bench section `platform` (docs/product/announcements.md#live): one announcement frame to every socket of every
 * company through the platform channel. Registers `sockets` fake sockets spread over `companies` companies (the real
 * `registerSocket` writes), points the management endpoint at a local capture server, and times `sendPlatformFrames`
 * (8 Queries of the channel's shards, then one post per socket), after a warm-up send.
 */
import { resetConfig } from "../../shared/src/config.ts";
import { registerSocket } from "../../shared/src/realtime/connections.ts";
import { resetRealtimeClient, sendPlatformFrames } from "../../shared/src/realtime/publish.ts";
import { startRealtimeCapture } from "../../shared/src/users/realtime-capture.testkit.ts";

/** Registers the sockets, then sends one platform frame `rounds` times; ms per send, and sockets reached. */
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
    await sendPlatformFrames([frame]);
    const times: number[] = [];
    let reached = 0;
    for (let r = 0; r < opts.rounds; r++) {
      capture.clear();
      const s = performance.now();
      await sendPlatformFrames([frame]);
      times.push(performance.now() - s);
      reached = new Set(capture.frames.map((f) => f.connectionId)).size;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    return { companies: opts.companies, sockets: opts.sockets, reached, registerSeconds, medianMs: Math.round(median), postsPerSecond: Math.round((reached / median) * 1000) };
  } finally {
    await capture.stop();
    if (saved === undefined) delete process.env.WS_MANAGEMENT_ENDPOINT;
    else process.env.WS_MANAGEMENT_ENDPOINT = saved;
    resetConfig();
    resetRealtimeClient();
  }
}
