/**
 * The whole product on one machine (docs/architecture.md#2-one-machine-npm-start): `startLocalStack` starts the stand-ins (DynamoDB Local,
 * s3rver, fauxqs), points the SDK clients at them through configuration only (`AWS_ENDPOINT_URL_*` and the variables
 * of `shared/src/config.ts`), creates the table, bucket and queues, seeds the first company, then serves on one port:
 * the HTTP gateway (`/api/*` → the manifest's area handlers; the SPA otherwise), the WebSocket emulator (`/ws`) with
 * its `@connections` API (`/@ws`), the sandbox `/sim/*` of the session runner, the SQS event-source pollers and the
 * minute tick. `stop()` closes all of it.
 *
 * The environment is per process, so one process runs one stack; two stacks run side by side in two processes
 * (every stand-in port is chosen free; the HTTP port is `opts.port`, 0 for a free one).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { getConfig, resetConfig } from "@atende/shared/config";
import { ensureTable, resetDdb } from "@atende/shared/db/client";
import { resetSqs } from "@atende/shared/sqs/enqueue";
import { listAllConnectionIds, unregisterSocket } from "@atende/shared/realtime/connections";
import { schedulePresenceCheck } from "@atende/shared/realtime/presence";
import { resetRealtimeClient } from "@atende/shared/realtime/publish";
import { resetS3 } from "@atende/shared/storage/media";
import { startAiStandin } from "./ai-standin.ts";
import { startPushStandin } from "./push-standin.ts";
import { generateVapidKeys, resetVapidKeys } from "@atende/shared/push/vapid";
import { startDynamo, type DynamoHandle } from "./dynamo.ts";
import { createApiHandler, createStaticHandler } from "./gateway.ts";
import { pollQueue, type Poller, type SqsHandler } from "./poller.ts";
import { startS3, type S3Handle } from "./s3.ts";
import { startSqs, type SqsHandle } from "./sqs.ts";
import { startSes, type SesHandle } from "./ses.ts";
import { resetMail } from "@atende/shared/mail/send";
import { handleSimPixPay } from "./sim-pix.ts";
import { attachWebSocketEmulator, type WsEmulator } from "./websocket.ts";
import { DEFAULT_LOCAL_HOST, isAllowedLocalRequest } from "./origin.ts";

const here = dirname(fileURLToPath(import.meta.url));
/** Repository root (this file is `infra/local/src/stack.ts`). */
export const REPO_ROOT = resolve(here, "../../..");
const FUNCTIONS_DIR = join(REPO_ROOT, "functions/src");

export interface LocalStackOptions {
  /** HTTP port (default `PORT` or 3000; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default `HOST` or 127.0.0.1: this machine only). */
  host?: string;
  /** Data folder (default `<repo>/.data`). Ignored when `inMemory`. */
  dataDir?: string;
  /** Wipe `dataDir` first (`npm start -- --fresh`). */
  fresh?: boolean;
  /** Nothing persisted: in-memory DynamoDB (unless `dynamoEndpoint`), temporary S3 folder, random JWT secret (unless set). */
  inMemory?: boolean;
  /** Use this DynamoDB instead of starting DynamoDB Local (tests pass the run's instance). */
  dynamoEndpoint?: string;
  /** TTL deletion on the table (default true); the benchmarks switch it off (`ensureTable`: DynamoDB Local's sweep). */
  ttl?: boolean;
  /** Built SPA folder (default `<repo>/web/dist`). */
  webDist?: string;
  /** Print status and problems (default false). */
  log?: boolean;
  /** WebSocket idle / hard timeouts in ms (API Gateway: 10 min / 2 h). */
  wsIdleTimeoutMs?: number;
  wsMaxLifetimeMs?: number;
  /** Minute tick period in ms (default 60000). */
  tickIntervalMs?: number;
  /** Run the session runner (and `/sim`) in this process (default true; the media-storm bench runs it as its own process). */
  sessionRunner?: boolean;
}

export interface LocalStack {
  /** `http://localhost:<port>` */
  url: string;
  port: number;
  /** What the seed reported (undefined when the seed module is not available). */
  seed?: { companyId: number; adminEmail: string; created: boolean };
  /** The local SES v2 emulator's inbox page (the emails the platform sent: password-reset codes). */
  mailInbox: string;
  /** The AI provider's stand-in (`./ai-standin.ts`): give it as a prompt's API URL (`baseUrl`) on this machine. */
  aiBaseUrl: string;
  /** The push service's stand-in (`./push-standin.ts`): `POST /subscribe`, `/get-notifications`, `/expire-subscription/<hash>`. */
  pushServiceUrl: string;
  stop(): Promise<void>;
}

type Stopper = { name: string; stop: () => Promise<unknown> | unknown };

/** Loads `<repo>/<rel>` when that file exists (modules other teams are still writing). */
async function optionalImport<T>(rel: string): Promise<T | undefined> {
  const file = join(REPO_ROOT, rel);
  if (!existsSync(file)) return undefined;
  return (await import(pathToFileURL(file).href)) as T;
}

/** Starts the local stack (see module doc). Rejects (after cleaning up) when a stand-in cannot start. */
export async function startLocalStack(opts: LocalStackOptions = {}): Promise<LocalStack> {
  const say = (msg: string, fields?: Record<string, unknown>) => {
    if (opts.log) console.log(fields ? `${msg} ${JSON.stringify(fields)}` : msg);
  };
  const startedAt = Date.now();
  const phases: string[] = [];
  let phaseAt = startedAt;
  const phase = (name: string) => {
    phases.push(`${name} ${Date.now() - phaseAt} ms`);
    phaseAt = Date.now();
  };
  const stoppers: Stopper[] = [];
  const stopAll = async () => {
    for (const s of stoppers.splice(0).reverse()) {
      try {
        await s.stop();
      } catch (err) {
        say(`stop ${s.name} failed: ${(err as Error).message}`);
      }
    }
  };

  try {
    const dataDir = opts.inMemory ? mkdtempSync(join(tmpdir(), "atende-")) : resolve(opts.dataDir ?? join(REPO_ROOT, ".data"));
    if (opts.inMemory) stoppers.push({ name: "temp dir", stop: () => rmSync(dataDir, { recursive: true, force: true }) });
    else if (opts.fresh) rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });

    // 1. The HTTP server first, so the port (and the origin for S3 CORS) is known; requests wait until ready.
    let ready!: () => void;
    const readyP = new Promise<void>((r) => (ready = r));
    let route: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async () => undefined;
    const server = createServer((req, res) => {
      readyP
        .then(() => route(req, res))
        .catch((err) => {
          say("gateway: request failed", { err: String(err?.message ?? err) });
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end('{"error":"ERR_INTERNAL"}');
        });
    });
    const requested = opts.port ?? Number(process.env.PORT ?? 3000);
    await new Promise<void>((res, rej) => {
      server.once("error", rej);
      server.listen(requested, opts.host ?? process.env.HOST ?? DEFAULT_LOCAL_HOST, () => res());
    });
    const port = (server.address() as AddressInfo).port;
    stoppers.push({
      name: "http",
      stop: () =>
        new Promise<void>((res) => {
          server.close(() => res());
          server.closeAllConnections();
        }),
    });
    const url = `http://localhost:${port}`;

    // 2. Configuration: credentials, table, bucket, secret (endpoints follow as stand-ins start).
    process.env.AWS_ACCESS_KEY_ID ??= "S3RVER";
    process.env.AWS_SECRET_ACCESS_KEY ??= "S3RVER";
    process.env.AWS_REGION ??= "us-east-1";
    process.env.STAGE ??= "local";
    process.env.TABLE_NAME ??= "atende";
    process.env.MEDIA_BUCKET ??= "atende-media";
    process.env.WA_PROVIDER ??= "simulator";
    // The Pix webhook's secret on this machine (the sandbox's "pay this Pix" calls the webhook with it).
    process.env.PIX_WEBHOOK_SECRET ??= randomBytes(24).toString("hex");
    if (!process.env.JWT_SECRET) {
      if (opts.inMemory) process.env.JWT_SECRET = randomBytes(32).toString("hex");
      else {
        const secretFile = join(dataDir, "jwt-secret");
        if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString("hex"), { mode: 0o600 });
        process.env.JWT_SECRET = readFileSync(secretFile, "utf8").trim();
      }
    }
    // The VAPID key pair pushes are signed with: generated once and kept in the data folder, like the JWT secret.
    if (!process.env.VAPID_PUBLIC_KEY || !process.env.VAPID_PRIVATE_KEY) {
      let pair: { publicKey: string; privateKey: string };
      if (opts.inMemory) pair = generateVapidKeys();
      else {
        const keyFile = join(dataDir, "vapid-keys.json");
        if (!existsSync(keyFile)) writeFileSync(keyFile, JSON.stringify(generateVapidKeys()), { mode: 0o600 });
        pair = JSON.parse(readFileSync(keyFile, "utf8"));
      }
      process.env.VAPID_PUBLIC_KEY = pair.publicKey;
      process.env.VAPID_PRIVATE_KEY = pair.privateKey;
    }
    resetVapidKeys();
    process.env.WS_MANAGEMENT_ENDPOINT = `http://127.0.0.1:${port}/@ws`;
    resetConfig();
    const cfg0 = getConfig();

    // 3. Stand-ins (in parallel).
    const started = await Promise.allSettled([
      opts.dynamoEndpoint
        ? Promise.resolve<DynamoHandle>({ endpoint: opts.dynamoEndpoint, port: Number(new URL(opts.dynamoEndpoint).port), stop: async () => undefined })
        : startDynamo({ dataDir: opts.inMemory ? undefined : join(dataDir, "dynamodb") }),
      startS3({
        directory: join(dataDir, "s3"),
        bucket: cfg0.MEDIA_BUCKET,
        origins: [url, `http://127.0.0.1:${port}`],
        accessKeyId: process.env.AWS_ACCESS_KEY_ID,
      }),
      startSqs({ region: cfg0.AWS_REGION, shards: cfg0.SESSION_SHARDS }),
      startSes(),
    ] as const);
    const names = ["dynamodb", "s3rver", "fauxqs", "aws-ses-v2-local"];
    started.forEach((r, i) => {
      if (r.status === "fulfilled") stoppers.push({ name: names[i], stop: () => r.value.stop() });
    });
    const failed = started.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
    phase("stand-ins");
    const [dynamo, s3, sqs, ses] = started.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [DynamoHandle, S3Handle, SqsHandle, SesHandle];
    process.env.AWS_ENDPOINT_URL_SESV2 = ses.endpoint;
    resetMail();

    process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
    process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
    process.env.AWS_ENDPOINT_URL_SQS = sqs.endpoint;
    process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = sqs.sessionCommandsPrefix;
    process.env.DISPATCH_QUEUE_URL = sqs.dispatchQueueUrl;
    process.env.JOBS_QUEUE_URL = sqs.jobsQueueUrl;
    process.env.WEBHOOKS_QUEUE_URL = sqs.webhooksQueueUrl;
    process.env.PUSH_QUEUE_URL = sqs.pushQueueUrl;
    // The AI provider's stand-in: no provider is reachable from one machine; a prompt points at it by its API URL,
    // and the speech SDK speaks voice replies to it (`SPEECH_HOST`, honoured on one machine only) unless another
    // host is configured.
    const ai = await startAiStandin();
    stoppers.push({ name: "ai stand-in", stop: () => ai.stop() });
    process.env.SPEECH_HOST ??= ai.speechHost;
    say("AI stand-in (a prompt's API URL on this machine)", { baseUrl: ai.baseUrl });
    // The push service's stand-in (Web Push protocol on the loopback address; never deployed).
    const pushService = await startPushStandin();
    stoppers.push({ name: "push stand-in", stop: () => pushService.stop() });
    say("push service stand-in", { url: pushService.url });
    resetConfig();
    resetDdb();
    resetS3();
    resetSqs();
    resetRealtimeClient();

    // 4. Table and first-start seed.
    await ensureTable(undefined, { ttl: opts.ttl });
    let seed: LocalStack["seed"];
    const seedMod = await optionalImport<{ seedLocal: (o?: unknown) => Promise<NonNullable<LocalStack["seed"]>> }>("shared/src/seed/seed.ts");
    if (seedMod) seed = await seedMod.seedLocal();
    phase("table+seed");
    if (!seedMod) say("seed: shared/src/seed/seed.ts is not there yet; starting without the first company");
    // The search backfill (`shared/src/search/backfill-job.ts`): each company not yet indexed gets its
    // backfill timer, which the minute tick below continues until done (its cursor survives restarts).
    const backfill = await optionalImport<{ startSearchBackfill: () => Promise<number[]> }>("shared/src/search/backfill-job.ts");
    const backfilling = (await backfill?.startSearchBackfill()) ?? [];
    if (backfilling.length) say("search backfill scheduled", { companies: backfilling.length });
    // The tab counts' backfill (`shared/src/tickets/counts-backfill.ts`): tickets stored before the counts, counted once.
    const counts = await optionalImport<{ startTicketCountsBackfill: () => Promise<number[]> }>("shared/src/tickets/counts-backfill.ts");
    const counting = (await counts?.startTicketCountsBackfill()) ?? [];
    if (counting.length) say("ticket counts backfill scheduled", { companies: counting.length });
    // The kanban lane backfill (`shared/src/kanban/backfill.ts`): tickets stored before the lane entries existed.
    const lanes = await optionalImport<{ startKanbanBackfill: () => Promise<number[]> }>("shared/src/kanban/backfill.ts");
    const laning = (await lanes?.startKanbanBackfill()) ?? [];
    if (laning.length) say("kanban lane backfill scheduled", { companies: laning.length });
    // Companies without their invoice timer get it (`shared/src/invoices/timer-backfill.ts`), once, through the tick.
    const invoiceTimers = await optionalImport<{ startInvoiceTimerBackfill: () => Promise<boolean> }>("shared/src/invoices/timer-backfill.ts");
    if (await invoiceTimers?.startInvoiceTimerBackfill()) say("invoice timer backfill scheduled");
    const reportBackfill = await optionalImport<{ startReportBackfill: () => Promise<number[]> }>("shared/src/reports/backfill.ts");
    const reporting = (await reportBackfill?.startReportBackfill()) ?? [];
    if (reporting.length) say("report backfill scheduled", { companies: reporting.length });

    // 5. Gateway, WebSocket emulator, sandbox.
    const api = createApiHandler({ functionsDir: FUNCTIONS_DIR, webDist: opts.webDist ?? join(REPO_ROOT, "web/dist"), log: say });
    const serveStatic = createStaticHandler(opts.webDist ?? join(REPO_ROOT, "web/dist"));
    const ws: WsEmulator = attachWebSocketEmulator({
      server,
      functionsDir: FUNCTIONS_DIR,
      idleTimeoutMs: opts.wsIdleTimeoutMs,
      maxLifetimeMs: opts.wsMaxLifetimeMs,
      log: say,
      allowUpgrade: (req) => isAllowedLocalRequest(req, port),
    });
    stoppers.push({ name: "websocket", stop: () => ws.close() });

    phase("gateway");
    type Runner = { handleSim(req: IncomingMessage, res: ServerResponse): Promise<boolean>; stop(): Promise<void> };
    let runner: Runner | undefined;
    const runnerMod = await optionalImport<{ startLocalRunner: () => Promise<Runner> }>("session-runner/src/local.ts");
    if (opts.sessionRunner === false) say("session runner: off in this process (sessionRunner: false)");
    else if (runnerMod?.startLocalRunner) {
      try {
        runner = await runnerMod.startLocalRunner();
        stoppers.push({ name: "session runner", stop: () => runner!.stop() });
      } catch (err) {
        // The product still serves without sessions; say so loudly, once.
        console.error(`session runner failed to start; WhatsApp sessions and /sim are off: ${(err as Error)?.message ?? err}`);
      }
    } else say("session runner: session-runner/src/local.ts is not there yet; WhatsApp sessions and /sim are off");

    phase("session runner");
    route = async (req, res) => {
      // Only this machine's own page (or a server-side caller without Origin) may drive the server.
      if (!isAllowedLocalRequest(req, port)) {
        res.writeHead(403, { "content-type": "application/json" }).end('{"error":"ERR_FORBIDDEN_ORIGIN"}');
        return;
      }
      if (await ws.handleManagement(req, res)) return;
      if (await api(req, res)) return;
      const path = (req.url ?? "/").split("?")[0];
      if (path === "/sim/pix/pay" && req.method === "POST") return handleSimPixPay(req, res, url);
      if (path === "/sim" || path.startsWith("/sim/")) {
        if (runner && (await runner.handleSim(req, res))) return;
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"ERR_ROUTE_NOT_FOUND"}');
        return;
      }
      serveStatic(req, res);
    };

    // 6. SQS consumers (Lambda event source mappings) whose modules exist.
    const pollers: Poller[] = [];
    const consumers: { queueUrl: string; module: string }[] = [
      { queueUrl: sqs.dispatchQueueUrl, module: "functions/src/jobs/dispatch.ts" },
      { queueUrl: sqs.jobsQueueUrl, module: "functions/src/jobs/jobs.ts" },
      { queueUrl: sqs.webhooksQueueUrl, module: "functions/src/jobs/webhooks.ts" },
      { queueUrl: sqs.pushQueueUrl, module: "functions/src/jobs/push.ts" },
      // Session-command DLQs: dead-lettered sends are marked failed.
      ...Array.from({ length: getConfig().SESSION_SHARDS }, (_, n) => ({ queueUrl: `${sqs.sessionCommandsPrefix}-${n}-dlq.fifo`, module: "functions/src/jobs/command-dlq.ts" })),
    ];
    for (const c of consumers) {
      const mod = await optionalImport<{ handler: SqsHandler }>(c.module);
      if (!mod?.handler) continue;
      pollers.push(pollQueue({ queueUrl: c.queueUrl, handler: mod.handler, onError: (err) => say("poller error", { module: c.module, err: String(err) }) }));
    }
    stoppers.push({ name: "pollers", stop: () => Promise.all(pollers.map((p) => p.stop())) });

    // 7. The minute tick (EventBridge schedule in the cloud). No socket survives a restart, so registrations left by
    // the previous run are removed first, their users' presence checks made due, and one tick sets them offline.
    const tick = (await import(pathToFileURL(join(FUNCTIONS_DIR, "jobs/tick.ts")).href)) as { handler: (e: unknown) => Promise<unknown> };
    if (!opts.inMemory) {
      for (const id of await listAllConnectionIds()) {
        const reg = await unregisterSocket(id);
        if (reg) await schedulePresenceCheck(reg.companyId, reg.userId);
      }
      await tick.handler({ "detail-type": "Scheduled Event", source: "aws.events", time: new Date().toISOString() });
    }
    let ticking: Promise<unknown> | undefined;
    const timer = setInterval(() => {
      if (ticking) return;
      ticking = tick
        .handler({ "detail-type": "Scheduled Event", source: "aws.events", time: new Date().toISOString() })
        .catch((err) => say("tick failed", { err: String(err?.message ?? err) }))
        .finally(() => (ticking = undefined));
    }, opts.tickIntervalMs ?? 60_000);
    stoppers.push({ name: "tick", stop: async () => {
        clearInterval(timer);
        await ticking;
      } });

    phase("pollers+tick");
    ready();
    say(`local stack ready on ${url} in ${Date.now() - startedAt} ms (${phases.join(", ")})`);
    if (seed?.created) say("first start: seeded plan, company, admin and settings");
    let stopping: Promise<void> | undefined;
    return { url, port, seed, mailInbox: ses.inboxUrl, aiBaseUrl: ai.baseUrl, pushServiceUrl: pushService.url, stop: () => (stopping ??= stopAll()) };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
