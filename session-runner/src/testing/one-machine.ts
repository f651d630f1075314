/**
 * The one-machine test world (used by `*.test.ts` only): fauxqs with the command queues, s3rver, the realtime
 * capture and the local runner with the simulated network, served over HTTP for the `/sim/*` routes. Call
 * {@link useOneMachine} at the top of a test file: it starts everything before the file's tests and stops it after.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll } from "vitest";
import { startTestS3 } from "@atende/shared/ingest/testkit";
import { startLocalRunner, type LocalRunner } from "../local.ts";
import { startQueues, startRealtimeCapture, type Queues, type RealtimeCapture } from "./harness.ts";

export interface QueuesAndRealtime {
  queues: Queues;
  rt: RealtimeCapture;
}

export interface OneMachine extends QueuesAndRealtime {
  local: LocalRunner;
  /** Calls a `/sim/*` route of the simulated network: JSON in, `{status, body}` out. */
  sim(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/** Starts fauxqs and the realtime capture before the file's tests, stops them after; the fields are set in `beforeAll`. */
export function useQueuesAndRealtime(): QueuesAndRealtime {
  const world = {} as QueuesAndRealtime;
  beforeAll(async () => {
    world.queues = await startQueues();
    world.rt = await startRealtimeCapture();
  });
  afterAll(async () => {
    await world.queues?.stop();
    await world.rt?.stop();
  });
  return world;
}

/** {@link useQueuesAndRealtime} plus s3rver and the local runner (fast receipts and back-off) behind an HTTP server. */
export function useOneMachine(): OneMachine {
  const world = useQueuesAndRealtime() as OneMachine;
  let s3: { stop: () => Promise<void> } | undefined;
  let server: Server | undefined;
  let base = "";
  beforeAll(async () => {
    s3 = await startTestS3();
    const local = await startLocalRunner({
      sim: { receiptDelayMs: 20 },
      runner: { consumer: { waitSeconds: 1, visibilitySeconds: 5, retryDelaySeconds: 1 }, sessions: { backoffBaseMs: 20, backoffCapMs: 200 } },
    });
    world.local = local;
    server = createServer(async (req, res) => {
      if (!(await local.handleSim(req, res))) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await world.local?.stop();
    if (server) await new Promise<void>((r) => server!.close(() => r()));
    await s3?.stop();
  });
  world.sim = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  return world;
}
