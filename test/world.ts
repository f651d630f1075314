/**
 * The shared preamble of the integration tests (used by `*.test.ts` only): `companyWorld(...)` registers the
 * `beforeAll`/`afterAll` hooks that start the realtime capture and build a company with its admin, optional queues,
 * connections, agents, a contact and its ticket, and optionally another company and a super admin; the returned object is filled in by `beforeAll`.
 * `useLocalAws(...)` does the same for the local S3 and SQS; `drainCommands` reads a connection's session commands.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll } from "vitest";
import { startS3, type S3Handle } from "../infra/local/src/s3.ts";
import { startSqs, type SqsHandle } from "../infra/local/src/sqs.ts";
import { startSes, type SesHandle } from "../infra/local/src/ses.ts";
import { resetMail } from "../shared/src/mail/send.ts";
import { getConfig, resetConfig } from "../shared/src/config.ts";
import { resetSqs, sqsClient } from "../shared/src/sqs/enqueue.ts";
import { resetS3 } from "../shared/src/storage/media.ts";
import { commandQueueUrl, shardOf } from "../shared/src/whatsapp/commands.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp } from "../shared/src/tickets/fixtures.testkit.ts";
import type { ContactItem } from "../shared/src/contacts/schema.ts";
import type { TicketItem } from "../shared/src/tickets/schema.ts";
import { startRealtimeCapture } from "../shared/src/users/realtime-capture.testkit.ts";
import type { Profile } from "../shared/src/users/schema.ts";
import { makeCompany, makeUser, type CompanyOptions, type TestUser } from "./helpers.ts";

export interface World {
  cid: number;
  /** The company's plan (all flags on but those `opts.planFlags` sets). */
  planId: number;
  admin: TestUser;
  /** Queue ids, in the order of `opts.queues`. */
  queues: number[];
  /** The first connection's id (0 without `opts.whatsapp`). */
  wa: number;
  /** Every connection's id, in the order of `opts.whatsapp` (a list) — `[wa]` for one, `[]` for none. */
  whatsapps: number[];
  /** Agents (profile user unless their entry names another), in the order of `opts.agents`. */
  agents: TestUser[];
  /** The contact (only with `opts.contact` or `opts.ticket`). */
  contact: ContactItem;
  /** The ticket of {@link World.contact} on the first connection (only with `opts.ticket`). */
  ticket: TicketItem;
  /** Another company (only with `opts.other`). */
  other: { companyId: number; admin: TestUser };
  /** A super admin, in a company of its own (only with `opts.root`). */
  root: TestUser;
  capture: Awaited<ReturnType<typeof startRealtimeCapture>>;
}

type WhatsappFields = Parameters<typeof makeWhatsapp>[1];

/** What a world is built from: see {@link companyWorld}. The company's own fields (`name`, `dueDate`, `planFlags`, `planLimits`, `adminSuper`) are `makeCompany`'s. */
export interface WorldOptions extends CompanyOptions {
  queues?: string[];
  whatsapp?: boolean | WhatsappFields | WhatsappFields[];
  agents?: { queues?: number[]; name?: string; profile?: Profile; super?: boolean; allTicket?: "enabled" | "desabled" }[];
  /** A contact: `true`, its name, or its name and number. */
  contact?: boolean | string | { name: string; number?: string };
  /** A ticket of the contact on the first connection (implies both): `true` = open and assigned to the admin. */
  ticket?: boolean | { status?: TicketItem["status"]; queue?: number; agent?: number | "admin" | null };
  other?: boolean;
  root?: boolean;
  /** `false`: no realtime capture (the file's own stack receives the frames, e.g. a local WebSocket gateway). */
  capture?: false;
}

/** Builds one company as `opts` describes it (everything of {@link World} but the capture). */
async function buildWorld(opts: WorldOptions): Promise<Omit<World, "capture">> {
  const { queues = [], whatsapp, agents = [], contact, ticket, other, root, capture: _capture, ...company } = opts;
  const c = await makeCompany(company);
  const w = { cid: c.companyId, planId: c.planId, admin: c.admin, queues: [] as number[], agents: [] as TestUser[], wa: 0, whatsapps: [] as number[] } as Omit<World, "capture">;
  for (const name of queues) w.queues.push((await makeQueue(w.cid, { name })).id);
  const connections = Array.isArray(whatsapp) ? whatsapp : whatsapp || ticket ? [whatsapp === true || !whatsapp ? {} : whatsapp] : [];
  for (const fields of connections) w.whatsapps.push((await makeWhatsapp(w.cid, fields)).id);
  w.wa = w.whatsapps[0] ?? 0;
  for (const a of agents) w.agents.push(await makeUser(w.cid, { ...a, queueIds: (a.queues ?? []).map((i) => w.queues[i]) }));
  if (contact || ticket) {
    const named = typeof contact === "string" ? { name: contact } : typeof contact === "object" ? contact : { name: "Cliente" };
    w.contact = await makeContact(w.cid, named.name, named.number);
  }
  if (ticket) {
    const t = ticket === true ? {} : ticket;
    const agent = t.agent === undefined || t.agent === "admin" ? w.admin.id : t.agent === null ? null : w.agents[t.agent].id;
    const status = t.status ?? "open";
    w.ticket = await makeTicket(w.cid, { whatsappId: w.wa, contact: w.contact, status, queueId: t.queue === undefined ? null : w.queues[t.queue], userId: status === "pending" ? null : agent });
  }
  if (other) w.other = await makeCompany();
  if (root) w.root = (await makeCompany({ adminSuper: true })).admin;
  return w;
}

/**
 * Declares the test file's world. Company fields: `name`, `dueDate`, `planFlags` (flags turned off), `planLimits`,
 * `adminSuper`; `queues`: queue names; `agents`: one user per entry, with the indexes of their queues in `queues`, an optional name,
 * profile (default `user`), `super` and `allTicket`; `whatsapp`: a default connection (`true`, its fields, or a list of
 * connections' fields); `contact`: a contact (`true`, a name, or name and number); `ticket`: that contact's ticket on
 * the first connection (open and the admin's by default; `status`, `queue` index, `agent` index or `null`); `other`: a
 * second company (cross-company checks); `root`: a super admin in a company of its own; `capture: false`: no realtime
 * capture (a file whose own local stack receives the frames).
 * `fresh(overrides)` builds another company of the same shape (sharing the capture), with `overrides` replacing
 * options, for a test that needs one untouched by the others or a company of another kind (`fresh({ dueDate: null })`).
 */
export function companyWorld(opts: WorldOptions = {}): World & { fresh(overrides?: WorldOptions): Promise<World> } {
  const w = { queues: [] as number[], agents: [] as TestUser[], wa: 0, whatsapps: [] as number[] } as unknown as World & { fresh(overrides?: WorldOptions): Promise<World> };
  beforeAll(async () => {
    if (opts.capture !== false) w.capture = await startRealtimeCapture();
    Object.assign(w, await buildWorld(opts));
  });
  afterAll(async () => w.capture?.stop());
  w.fresh = async (overrides = {}) => ({ ...(await buildWorld({ ...opts, ...overrides })), capture: w.capture });
  return w;
}

export interface LocalAws {
  /** The local SQS (elasticmq-compatible) with the shard command queues; only with `opts.sqs`. */
  sqs: SqsHandle;
  s3: S3Handle;
  /** The local SES v2 emulator (`readInbox(ses.endpoint)` lists the emails sent); only with `opts.ses`. */
  ses: SesHandle;
}

/**
 * Starts the local S3 (s3rver, bucket `bucket`, in a temporary folder) and, with `opts.sqs`, the local SQS with two
 * session-command shards, before the file's tests; points the SDK clients at them; stops and removes them after.
 */
export function useLocalAws(opts: { sqs?: boolean; bucket?: string; ses?: boolean } = {}): LocalAws {
  const aws = {} as LocalAws;
  let dir = "";
  beforeAll(async () => {
    if (opts.ses) {
      aws.ses = await startSes();
      process.env.AWS_ENDPOINT_URL_SESV2 = aws.ses.endpoint;
      resetMail();
    }
    if (opts.sqs) {
      process.env.SESSION_SHARDS = "2";
      aws.sqs = await startSqs({ region: "us-east-1", shards: 2 });
      process.env.AWS_ENDPOINT_URL_SQS = aws.sqs.endpoint;
      process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = aws.sqs.sessionCommandsPrefix;
      process.env.JOBS_QUEUE_URL = aws.sqs.jobsQueueUrl;
      process.env.DISPATCH_QUEUE_URL = aws.sqs.dispatchQueueUrl;
      process.env.WEBHOOKS_QUEUE_URL = aws.sqs.webhooksQueueUrl;
      process.env.PUSH_QUEUE_URL = aws.sqs.pushQueueUrl;
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
    await aws.ses?.stop();
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
