/**
 * The shared preamble of the integration tests (used by `*.test.ts` only): `companyWorld(...)` registers the
 * `beforeAll`/`afterAll` hooks that start the realtime capture and build a company with its admin, optional queues, a
 * connection and agents, and optionally another company; the returned object is filled in by `beforeAll`.
 * `useLocalAws(...)` does the same for the local S3 and SQS; `drainCommands` reads a connection's session commands.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll } from "vitest";
import { startS3, type S3Handle } from "../infra/local/src/s3.ts";
import { startSqs, type SqsHandle } from "../infra/local/src/sqs.ts";
import { getConfig, resetConfig } from "../shared/src/config.ts";
import { resetSqs, sqsClient } from "../shared/src/sqs/enqueue.ts";
import { resetS3 } from "../shared/src/storage/media.ts";
import { commandQueueUrl, shardOf } from "../shared/src/whatsapp/commands.ts";
import { makeQueue, makeWhatsapp } from "../shared/src/tickets/fixtures.testkit.ts";
import { startRealtimeCapture } from "../shared/src/users/realtime-capture.testkit.ts";
import type { Profile } from "../shared/src/users/schema.ts";
import { makeCompany, makeUser, type TestUser } from "./helpers.ts";

export interface World {
  cid: number;
  admin: TestUser;
  /** Queue ids, in the order of `opts.queues`. */
  queues: number[];
  /** The connection id (0 without `opts.whatsapp`). */
  wa: number;
  /** Agents (profile user unless their entry names another), in the order of `opts.agents`. */
  agents: TestUser[];
  /** Another company (only with `opts.other`). */
  other: { companyId: number; admin: TestUser };
  capture: Awaited<ReturnType<typeof startRealtimeCapture>>;
}

/** What a world is built from: see {@link companyWorld}. */
export interface WorldOptions {
  queues?: string[];
  whatsapp?: boolean | Parameters<typeof makeWhatsapp>[1];
  agents?: { queues?: number[]; name?: string; profile?: Profile }[];
  other?: boolean;
}

/** Builds one company as `opts` describes it (everything of {@link World} but the capture). */
async function buildWorld(opts: WorldOptions): Promise<Omit<World, "capture">> {
  const c = await makeCompany();
  const w = { cid: c.companyId, admin: c.admin, queues: [] as number[], agents: [] as TestUser[], wa: 0 } as Omit<World, "capture">;
  for (const name of opts.queues ?? []) w.queues.push((await makeQueue(w.cid, { name })).id);
  if (opts.whatsapp) w.wa = (await makeWhatsapp(w.cid, opts.whatsapp === true ? {} : opts.whatsapp)).id;
  for (const a of opts.agents ?? []) w.agents.push(await makeUser(w.cid, { queueIds: (a.queues ?? []).map((i) => w.queues[i]), name: a.name, profile: a.profile }));
  if (opts.other) w.other = await makeCompany();
  return w;
}

/**
 * Declares the test file's world. `queues`: queue names; `agents`: one agent per entry, with the indexes of their queues
 * in `queues`, an optional name and profile (default `user`); `whatsapp`: a default connection (or its fields); `other`: a second company (cross-company checks).
 * `fresh()` builds another company of the same shape (sharing the capture), for a test that needs one untouched by the others.
 */
export function companyWorld(opts: WorldOptions = {}): World & { fresh(): Promise<World> } {
  const w = { queues: [] as number[], agents: [] as TestUser[], wa: 0 } as unknown as World & { fresh(): Promise<World> };
  beforeAll(async () => {
    w.capture = await startRealtimeCapture();
    Object.assign(w, await buildWorld(opts));
  });
  afterAll(async () => w.capture?.stop());
  w.fresh = async () => ({ ...(await buildWorld(opts)), capture: w.capture });
  return w;
}

export interface LocalAws {
  /** The local SQS (elasticmq-compatible) with the shard command queues; only with `opts.sqs`. */
  sqs: SqsHandle;
  s3: S3Handle;
}

/**
 * Starts the local S3 (s3rver, bucket `bucket`, in a temporary folder) and, with `opts.sqs`, the local SQS with two
 * session-command shards, before the file's tests; points the SDK clients at them; stops and removes them after.
 */
export function useLocalAws(opts: { sqs?: boolean; bucket?: string } = {}): LocalAws {
  const aws = {} as LocalAws;
  let dir = "";
  beforeAll(async () => {
    if (opts.sqs) {
      process.env.SESSION_SHARDS = "2";
      aws.sqs = await startSqs({ region: "us-east-1", shards: 2 });
      process.env.AWS_ENDPOINT_URL_SQS = aws.sqs.endpoint;
      process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = aws.sqs.sessionCommandsPrefix;
      process.env.JOBS_QUEUE_URL = aws.sqs.jobsQueueUrl;
      process.env.DISPATCH_QUEUE_URL = aws.sqs.dispatchQueueUrl;
    }
    dir = mkdtempSync(join(tmpdir(), "atende-s3-"));
    const bucket = opts.bucket ?? "atende-media-test";
    process.env.MEDIA_BUCKET = bucket;
    aws.s3 = await startS3({ directory: dir, bucket, origins: ["http://localhost"], accessKeyId: process.env.AWS_ACCESS_KEY_ID });
    process.env.AWS_ENDPOINT_URL_S3 = aws.s3.endpoint;
    resetConfig();
    resetSqs();
    resetS3();
  });
  afterAll(async () => {
    await aws.sqs?.stop();
    await aws.s3?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return aws;
}

/** Receives (and deletes) every command waiting on the connection's shard queue, oldest first. */
export async function drainCommands(whatsappId: number): Promise<any[]> {
  const url = commandQueueUrl(shardOf(whatsappId));
  const out: any[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!res.Messages?.length) break;
    for (const m of res.Messages) {
      out.push(JSON.parse(m.Body!));
      await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return out;
}

/**
 * The jobs queue's consumer as Lambda runs it: receives the waiting job messages and hands them to
 * `functions/src/jobs/jobs.ts` until the queue is empty (a failed record is left to come back, as with
 * `batchItemFailures`). Returns how many messages were handled.
 */
export async function runQueuedJobs(): Promise<number> {
  const { handler } = await import("../functions/src/jobs/jobs.ts");
  const url = getConfig().JOBS_QUEUE_URL!;
  let n = 0;
  let returning = 0;
  for (let i = 0; i < 50; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 1 }));
    if (!res.Messages?.length) {
      if (!returning) return n;
      returning = 0;
      await new Promise((r) => setTimeout(r, 1200)); // a failed record is visible again after its 1 s
      continue;
    }
    const out = await handler({ Records: res.Messages.map((m) => ({ messageId: m.MessageId!, body: m.Body! })) });
    const failed = new Set(out.batchItemFailures.map((f) => f.itemIdentifier));
    for (const m of res.Messages) {
      n++;
      if (failed.has(m.MessageId!)) returning++;
      else await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return n;
}
