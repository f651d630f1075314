/**
 * The media storm for `npm run bench` (`--only=storm`): "the simulator sends a 1.5 GB document
 * announcement and 50 images at once; the runner's peak RSS stays under a stated bound, the other sessions keep
 * working".
 *
 * Three processes, so the figure is the runner's own: the bench's process calls {@link runMediaStorm}, which starts
 * this file as the driver (`--drive`): a local stack without the session runner (`sessionRunner: false`; gateway,
 * s3rver, fauxqs, `@connections`, on the bench's DynamoDB Local, in a table of its own) that spawns the runner as its
 * own Node process (`storm-runner.ts`: `startLocalRunner`, as `npm start` runs it, with the simulated network).
 * The driver pairs two connections through `/sim`, then, at once on the stormed connection: a 1.5 GB document
 * announcement (`fileLength`, 2 bytes behind it) and 50 images of 1 MiB from 10 customers; meanwhile, on the calm
 * connection of the same runner, round trips one after another (a customer's text until stored, then the agent's
 * reply through `POST /api/messages/{ticketId}` until the simulated phone has it).
 * The runner's memory is read from the OS: `VmRSS` of `/proc/<pid>/status` sampled every 20 ms (before → peak) and
 * `VmHWM` (the kernel's high-water mark over the process' life), with the 1-minute load average at the peak.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize } from "./stats.ts";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");

/** Stated bound of the session runner's peak RSS under the media storm (MB; the Fargate task has 512 MiB). */
export const MEDIA_STORM_BOUND_MB = 400;
/** Images sent at once and their size. */
const IMAGES = 50;
const IMAGE_BYTES = 2 ** 20;
const HUGE = 1_500_000_000;

export interface MediaStormResult {
  boundMB: number;
  runnerRssBeforeMB: number;
  runnerRssPeakMB: number;
  /** The kernel's high-water mark of the runner's RSS over its whole life (start-up included). */
  runnerVmHwmMB: number;
  /** 1-minute load average when the peak was sampled, and at the end. */
  loadAtPeak: number;
  loadAtEnd: number;
  /** Largest `process.memoryUsage()` fields seen inside the runner during the storm (MB, sampled every 250 ms). */
  runnerHeapUsedPeakMB: number;
  runnerExternalPeakMB: number;
  runnerArrayBuffersPeakMB: number;
  documentTooLarge: boolean;
  /** What the stored document looked like (when the check above is false, the reason is here). */
  document: { found: boolean; mediaKey: string | null; mediaError: boolean; mediaSize: number | null; note: boolean } | null;
  imagesStored: number;
  imagesSent: number;
  /** Sandbox answers received for the images (an answer cut by a timeout is not a lost message: the table decides). */
  imagesAnswered: number;
  stormSeconds: number;
  calm: { roundTrips: number; completed: number; inbound: ReturnType<typeof summarize>; outbound: ReturnType<typeof summarize>; total: ReturnType<typeof summarize> };
  calmBefore: { total: number };
}

/** Runs the storm in its own processes (see the module doc) against `dynamoEndpoint`; resolves with the figures. */
export async function runMediaStorm(dynamoEndpoint: string): Promise<MediaStormResult> {
  const child = spawn(process.execPath, ["--import", "tsx", join(here, "storm.ts"), "--drive", `--dynamo=${dynamoEndpoint}`], {
    cwd: root,
    env: { ...process.env, TABLE_NAME: `bench-storm-${Date.now()}` },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (c) => (out += String(c)));
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  const line = out.split("\n").find((l) => l.startsWith("STORM_RESULT "));
  if (!line) throw new Error(`media storm driver exited (${code}) without a result:\n${out.slice(-2000)}`);
  return JSON.parse(line.slice("STORM_RESULT ".length)) as MediaStormResult;
}

/** The rows `npm run bench` prints for the storm. */
export function mediaStormRows(r: MediaStormResult): Record<string, unknown>[] {
  const s = (x: ReturnType<typeof summarize>) => `${x.p50} / ${x.max}`;
  return [
    {
      measure: `session runner's own process: RSS before → peak (VmHWM), MB; bound ${r.boundMB} MB of a 512 MiB task`,
      value: `${r.runnerRssBeforeMB} → ${r.runnerRssPeakMB} (${r.runnerVmHwmMB}) ${Math.max(r.runnerRssPeakMB, r.runnerVmHwmMB) <= r.boundMB ? "within" : "OVER"} the bound`,
    },
    { measure: "load average (1 min) at the peak / at the end", value: `${r.loadAtPeak} / ${r.loadAtEnd}` },
    { measure: "runner heap used / external / arrayBuffers, peak MB (sampled)", value: `${r.runnerHeapUsedPeakMB} / ${r.runnerExternalPeakMB} / ${r.runnerArrayBuffersPeakMB}` },
    { measure: '1.5 GB document stored "too large" with the agent\'s note', value: r.documentTooLarge },
    { measure: "images stored with their file / sent at once", value: `${r.imagesStored}/${r.imagesSent} in ${r.stormSeconds} s` },
    { measure: "other session, same runner: round trips completed during the storm", value: `${r.calm.completed}/${r.calm.roundTrips}` },
    { measure: "other session: customer → stored, p50 / max ms", value: s(r.calm.inbound) },
    { measure: "other session: agent reply → on the phone, p50 / max ms", value: s(r.calm.outbound) },
    { measure: "other session: round trip during the storm, p50 / max ms (before the storm)", value: `${s(r.calm.total)} (${r.calmBefore.total})` },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// The driver (this file run with --drive).

const MB = (bytes: number) => Math.round(bytes / 2 ** 20);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `VmRSS` and `VmHWM` of a process, in bytes (0 when it is gone). */
function procMemory(pid: number): { rss: number; hwm: number } {
  try {
    const st = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(st)?.[1] ?? 0) * 1024;
    return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}
const loadAvg = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

async function drive(dynamoEndpoint: string): Promise<MediaStormResult> {
  const runnerLog = process.env.STORM_LOG_LEVEL;
  process.env.LOG_LEVEL = "silent";
  const { startLocalStack } = await import("../../infra/local/src/stack.ts");
  const stack = await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint, sessionRunner: false });
  const runner = spawn(process.execPath, ["--import", "tsx", join(here, "storm-runner.ts")], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: runnerLog ?? "silent" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const simPort = await new Promise<number>((res, rej) => {
      let buf = "";
      runner.stdout.on("data", (c) => {
        buf += String(c);
        const m = /READY (\d+)/.exec(buf);
        if (m) res(Number(m[1]));
      });
      runner.once("exit", (code) => rej(new Error(`session runner exited (${code}) before it was ready`)));
    });
    const sim = `http://127.0.0.1:${simPort}`;
    const { makeCompany } = await import("../../test/helpers.ts");
    const { storedState } = await import("../../shared/src/ingest/testkit.ts");
    const c = await makeCompany();
    const auth = { authorization: `Bearer ${c.admin.token}`, "content-type": "application/json" };
    const json = { "content-type": "application/json" };

    const connect = async (name: string): Promise<number> => {
      const r = await fetch(`${stack.url}/api/whatsapp`, { method: "POST", headers: auth, body: JSON.stringify({ name }) });
      const created = await r.json();
      const id = created.id as number;
      if (!r.ok || !id) throw new Error(`POST /api/whatsapp answered ${r.status} ${JSON.stringify(created)}`);
      for (let i = 0; i < 600; i++) {
        const st = await (await fetch(`${sim}/sim/whatsapp/${id}`)).json();
        if (st.open) return id;
        if (st.qrcode) await fetch(`${sim}/sim/whatsapp/${id}/scan`, { method: "POST", headers: json, body: "{}" });
        await sleep(200);
      }
      throw new Error(`connection ${name} (${id}) did not open`);
    };
    /** A customer's message through the simulator; answered once the runner handled it (null when the answer was lost). */
    const post = async (id: number, body: Record<string, unknown>): Promise<{ id: string } | null> => {
      try {
        const r = await fetch(`${sim}/sim/whatsapp/${id}/messages`, { method: "POST", headers: json, body: JSON.stringify(body) });
        return r.ok ? ((await r.json()) as { id: string }) : null;
      } catch {
        return null;
      }
    };
    const stormed = await connect("Tempestade");
    const calm = await connect("Calma");
    const CALM_FROM = "5511755550001";

    // The calm chat's ticket, from a first text.
    const first = await post(calm, { from: CALM_FROM, pushName: "Cliente calmo", text: "olá" });
    const ticketId = (await storedState(c.companyId)).messages.find((m) => m.id === first?.id)?.ticketId;
    if (!ticketId) throw new Error("the calm connection's first text was not stored");
    /** One round trip on the calm connection: customer text until stored, agent reply until the phone has it. */
    const roundTrip = async (i: number) => {
      const t0 = performance.now();
      const inbound = await post(calm, { from: CALM_FROM, text: `ainda funciona? ${i}` });
      const t1 = performance.now();
      const sent = await fetch(`${stack.url}/api/messages/${ticketId}`, { method: "POST", headers: auth, body: JSON.stringify({ body: `sim, ${i}`, signMessage: false }) });
      const replyId = sent.ok ? ((await sent.json()) as { id: string }).id : "";
      let delivered = false;
      for (let k = 0; k < 3000 && replyId && !delivered; k++) {
        const list = (await (await fetch(`${sim}/sim/whatsapp/${calm}/sent`)).json()) as { id: string }[];
        delivered = list.some((s) => s.id === replyId);
        if (!delivered) await sleep(20);
      }
      const t2 = performance.now();
      return { ok: !!inbound && delivered, inbound: t1 - t0, outbound: t2 - t1, total: t2 - t0 };
    };
    const before = await roundTrip(-1);

    // The storm.
    const pid = runner.pid!;
    const m0 = procMemory(pid);
    let peak = m0.rss;
    let loadAtPeak = loadAvg();
    const sampler = setInterval(() => {
      const { rss } = procMemory(pid);
      if (rss > peak) {
        peak = rss;
        loadAtPeak = loadAvg();
      }
    }, 20);
    const inner = { heapUsed: 0, external: 0, arrayBuffers: 0 };
    let sampling = true;
    const innerSampler = (async () => {
      while (sampling) {
        try {
          const m = (await (await fetch(`${sim}/mem`)).json()) as typeof inner;
          for (const k of Object.keys(inner) as (keyof typeof inner)[]) inner[k] = Math.max(inner[k], m[k]);
        } catch {
          /* a sample lost under load */
        }
        await sleep(250);
      }
    })();
    const image = randomBytes(IMAGE_BYTES).toString("base64");
    const t0 = performance.now();
    let stormDone = false;
    const [doc, imgs, trips] = await Promise.all([
      post(stormed, { from: "5511766660000", document: Buffer.from("PK").toString("base64"), mimetype: "application/zip", fileName: "backup.zip", fileLength: HUGE }),
      Promise.all(Array.from({ length: IMAGES }, (_, i) => post(stormed, { from: `55117666600${String((i % 10) + 1).padStart(2, "0")}`, image, mimetype: "image/jpeg" }))),
      (async () => {
        const out: Awaited<ReturnType<typeof roundTrip>>[] = [];
        for (let i = 0; i < 5 || (!stormDone && i < 200); i++) out.push(await roundTrip(i));
        return out;
      })().finally(() => undefined),
      (async () => {
        // The storm is over once the document and every image are stored (read from the table: a lost answer is not a lost message).
        for (let i = 0; i < 900; i++) {
          const st = await storedState(c.companyId);
          const docStored = st.messages.some((m) => m.mediaName === "backup.zip");
          if (docStored && st.messages.filter((m) => m.mediaType === "image").length >= IMAGES) break;
          await sleep(200);
        }
        stormDone = true;
      })(),
    ]);
    const stormSeconds = Math.round((performance.now() - t0) / 100) / 10;
    clearInterval(sampler);
    sampling = false;
    await innerSampler;
    const end = procMemory(pid);

    const st = await storedState(c.companyId);
    const docItem = st.messages.find((m) => (doc ? m.id === doc.id : m.mediaName === "backup.zip"));
    const note = !!docItem?.body.includes("Arquivo grande demais");
    const documentTooLarge = !!docItem && docItem.mediaError && !docItem.mediaKey && docItem.mediaSize === HUGE && note;
    return {
      boundMB: MEDIA_STORM_BOUND_MB,
      runnerRssBeforeMB: MB(m0.rss),
      runnerRssPeakMB: MB(Math.max(peak, end.rss)),
      runnerVmHwmMB: MB(end.hwm),
      loadAtPeak,
      loadAtEnd: loadAvg(),
      runnerHeapUsedPeakMB: MB(inner.heapUsed),
      runnerExternalPeakMB: MB(inner.external),
      runnerArrayBuffersPeakMB: MB(inner.arrayBuffers),
      documentTooLarge,
      document: docItem ? { found: true, mediaKey: docItem.mediaKey, mediaError: docItem.mediaError, mediaSize: docItem.mediaSize, note } : null,
      imagesStored: st.messages.filter((m) => m.mediaType === "image" && m.mediaKey && !m.mediaError).length,
      imagesSent: IMAGES,
      imagesAnswered: imgs.filter(Boolean).length,
      stormSeconds,
      calm: {
        roundTrips: trips.length,
        completed: trips.filter((t) => t.ok).length,
        inbound: summarize(trips.map((t) => t.inbound)),
        outbound: summarize(trips.map((t) => t.outbound)),
        total: summarize(trips.map((t) => t.total)),
      },
      calmBefore: { total: Math.round(before.total) },
    };
  } finally {
    runner.kill("SIGTERM");
    await new Promise((r) => (runner.exitCode !== null ? r(null) : runner.once("exit", r)));
    await stack.stop();
  }
}

if (process.argv.includes("--drive")) {
  const endpoint = process.argv.find((a) => a.startsWith("--dynamo="))?.slice("--dynamo=".length);
  if (!endpoint) throw new Error("--dynamo=<endpoint> is required");
  const r = await drive(endpoint);
  process.stdout.write(`STORM_RESULT ${JSON.stringify(r)}\n`);
  process.exit(0);
}
