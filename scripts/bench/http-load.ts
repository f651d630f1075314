/**
 * HTTP load with CPU accounting for `npm run bench`: requests come from a separate client process
 * (`load-client.mjs`), and the CPU time the product spends on them is read from the operating system's accounting
 * (`/proc/<pid>/stat` utime + stime, all threads) of the product's processes — this Node process (the local stack: gateway,
 * handlers, SDK) and DynamoDB Local's Java — sampled right before and after each timed run, less what the same
 * processes spend when idle (their background timers and pollers, measured over 3 s before each run).
 */
import { spawn } from "node:child_process";
import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { summarize } from "./stats.ts";

const TICK_MS = 1000 / (Number(execSync("getconf CLK_TCK").toString().trim()) || 100);

/** CPU time (ms, user + system, every thread) a process has used so far, from `/proc/<pid>/stat`. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from #3 (state) on
  return (Number(f[11]) + Number(f[12])) * TICK_MS; // #14 utime, #15 stime
}

/**
 * CPU time (ms) a JVM's JIT compiler threads (`C1/C2 CompilerThread`) have used so far, from `/proc/<pid>/task`: in
 * DynamoDB Local's first minutes it is a large and load-dependent part of its CPU, so a figure per operation says how
 * much of it was compiling rather than serving.
 */
export function jitCpuMs(pid: number): number {
  let ms = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      if (!/Compiler/.test(stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")))) continue;
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ms += (Number(f[11]) + Number(f[12])) * TICK_MS;
    } catch {
      // thread gone meanwhile
    }
  }
  return ms;
}

/** The pids of DynamoDB Local listening on `port` (the Java process, and any wrapper), from `/proc/<pid>/cmdline`. */
export function dynamoPids(port: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(join("/proc", d, "cmdline"), "utf8").split("\0");
      if (cmd.some((a) => a.includes("DynamoDBLocal")) && cmd.includes(String(port))) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Length of the idle window measured before each run (ms). */
const IDLE_WINDOW_MS = 3000;

/** One timed run's figures: latency percentiles (ms), requests/s and product CPU per request (ms). */
export interface RunFigures {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  nodeCpuMs: number;
  ddbCpuMs: number;
  cpuMs: number;
  /** The same without the idle rate subtracted (ms per request): on a loaded machine the 3-s idle window swings, so both are shown. */
  grossCpuMs: number;
  /** The machine's 1-minute load average at the end of the run (a shared machine: figures under load are not quiet ones). */
  load1: number;
}

/**
 * GETs `url` with the bearer `token`: `warmup` requests, then each of `runs` (`total` requests at `concurrency`),
 * accounting the CPU of this process and `ddbPids` during each run. Throws when an answer is not 200.
 */
export async function measureGet(url: string, token: string, ddbPids: number[], runs: { total: number; concurrency: number }[], warmup = 20): Promise<RunFigures[]> {
  const child = spawn(process.execPath, [join(import.meta.dirname, "load-client.mjs"), JSON.stringify({ url, token, warmup, runs })], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += String(d)));
  const lines = createInterface({ input: child.stdout });
  const out: RunFigures[] = [];
  let before = { node: 0, ddb: 0 };
  let idleRate = { node: 0, ddb: 0 };
  let runStart = 0;
  const sample = () => ({ node: cpuMs(process.pid), ddb: ddbPids.reduce((a, p) => a + cpuMs(p), 0) });
  const exited = new Promise<number>((res) => child.once("exit", (code) => res(code ?? 1)));
  for await (const line of lines) {
    if (line.startsWith("start ")) {
      // The stack's own background work (SQS pollers, the minute tick, timers) while no request runs: measured over
      // an idle window and subtracted, so the figure is the CPU the requests cost.
      const idle0 = sample();
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, IDLE_WINDOW_MS));
      const idle1 = sample();
      const idleMs = performance.now() - t0;
      idleRate = { node: (idle1.node - idle0.node) / idleMs, ddb: (idle1.ddb - idle0.ddb) / idleMs };
      before = sample();
      runStart = performance.now();
      child.stdin.write("go\n");
    } else if (line.startsWith("done ")) {
      const after = sample();
      const wall = performance.now() - runStart;
      const json = JSON.parse(line.slice(line.indexOf("{"))) as { durations: number[]; seconds: number };
      const n = json.durations.length;
      const s = summarize(json.durations);
      const r = (x: number) => Math.round(x * 100) / 100;
      const nodeCpu = Math.max(0, after.node - before.node - idleRate.node * wall) / n;
      const ddbCpu = Math.max(0, after.ddb - before.ddb - idleRate.ddb * wall) / n;
      out.push({ p50: s.p50, p95: s.p95, p99: s.p99, rps: Math.round(n / json.seconds), nodeCpuMs: r(nodeCpu), ddbCpuMs: r(ddbCpu), cpuMs: r(nodeCpu + ddbCpu), grossCpuMs: r((after.node - before.node + after.ddb - before.ddb) / n), load1: r(loadavg()[0]) });
      child.stdin.write("next\n");
    }
  }
  const code = await exited;
  if (code !== 0) throw new Error(`load client failed for ${url}: ${stderr.slice(-500)}`);
  return out;
}

/**
 * Requests sent before a case's timed runs: steady state, not the JIT's first compilations (DynamoDB Local's JVM
 * compiles a new query shape's path over its first hundred or so requests; measured: the first case of a run at
 * twice the CPU per request of the same case later).
 */
const CASE_WARMUP = 150;

/**
 * The standard runs of a case: 200 requests at concurrency 1 and 400 at concurrency 10, as table columns, after
 * `reps.warmup` requests ({@link CASE_WARMUP} by default; fewer on a machine too loaded to run them in time).
 */
export async function caseRow(url: string, token: string, ddbPids: number[], reps: { c1: number; c10: number; warmup?: number } = { c1: 200, c10: 400 }): Promise<Record<string, number | string>> {
  const [c1, c10] = await measureGet(
    url,
    token,
    ddbPids,
    [
      { total: reps.c1, concurrency: 1 },
      { total: reps.c10, concurrency: 10 },
    ],
    reps.warmup ?? CASE_WARMUP,
  );
  return {
    "c1 p50": c1.p50,
    "c1 p99": c1.p99,
    "c1 rps": c1.rps,
    "c1 cpu ms/req": c1.cpuMs,
    "c1 node+ddb": `${c1.nodeCpuMs}+${c1.ddbCpuMs}`,
    "c1 gross cpu": c1.grossCpuMs,
    "c1 load": c1.load1,
    "c10 p50": c10.p50,
    "c10 p99": c10.p99,
    "c10 rps": c10.rps,
    "c10 cpu ms/req": c10.cpuMs,
    "c10 node+ddb": `${c10.nodeCpuMs}+${c10.ddbCpuMs}`,
    "c10 gross cpu": c10.grossCpuMs,
    "c10 load": c10.load1,
  };
}
