/**
 * SQS on one machine (docs/architecture.md#2-one-machine-npm-start): `fauxqs` on a free port with the product's queues —
 * `session-commands-<n>.fifo` for each session shard (content-based dedupe off; dedupe id = our command id) with a
 * FIFO DLQ each, `jobs` with `jobs-dlq`, `dispatch` with `dispatch-dlq`, `webhooks` with `webhooks-dlq` and `push` with `push-dlq` — all with a redrive policy (5 receives),
 * as in the cloud.
 *
 * fauxqs names queues `http://sqs.<region>.localhost:<port>/000000000000/<name>` and the SQS SDK sends each call to
 * its queue URL's host, so this module makes `*.localhost` resolve to 127.0.0.1 inside this process (RFC 6761 says it
 * always should; glibc does not). fauxqs keeps queues in memory: DynamoDB stays the source of truth for pending work.
 */
import { Server } from "node:net";
import { interceptLocalhostDns, startFauxqs } from "fauxqs";

/** Receives before a message moves to its DLQ. */
export const MAX_RECEIVE_COUNT = 5;

export interface SqsHandle {
  /** `AWS_ENDPOINT_URL_SQS`: `http://sqs.<region>.localhost:<port>` (resolvable in this process only, see module doc). */
  endpoint: string;
  /** `SESSION_COMMANDS_QUEUE_URL_PREFIX`: shard n is `${prefix}-${n}.fifo`. */
  sessionCommandsPrefix: string;
  dispatchQueueUrl: string;
  dispatchDlqUrl: string;
  /** `JOBS_QUEUE_URL`: background jobs (`shared/src/jobs/`). */
  jobsQueueUrl: string;
  /** `WEBHOOKS_QUEUE_URL`: company webhooks' attempts (`shared/src/webhooks/`). */
  webhooksQueueUrl: string;
  /** `PUSH_QUEUE_URL`: push notifications' fan-outs and retries (`shared/src/push/`). */
  pushQueueUrl: string;
  stop(): Promise<void>;
}

let dnsPatch: { restore: () => void; users: number } | undefined;

/**
 * `startFauxqs` bound to 127.0.0.1: fauxqs listens on `0.0.0.0` with no option to change it, so while it starts,
 * a listen of this process on every interface is turned into one on the loopback address.
 */
export async function startLoopbackFauxqs(opts: Parameters<typeof startFauxqs>[0]): ReturnType<typeof startFauxqs> {
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    const o = args[0];
    if (o && typeof o === "object" && "host" in o && (o.host === "0.0.0.0" || o.host === "::")) args[0] = { ...o, host: "127.0.0.1" };
    return (listen as (...a: unknown[]) => Server).apply(this, args);
  } as typeof listen;
  try {
    return await startFauxqs(opts);
  } finally {
    Server.prototype.listen = listen;
  }
}

/** Starts fauxqs on 127.0.0.1 and `port` (free when 0/omitted) and creates the queues. */
export async function startSqs(opts: { port?: number; region: string; shards: number }): Promise<SqsHandle> {
  if (!dnsPatch) dnsPatch = { restore: interceptLocalhostDns(), users: 0 };
  dnsPatch.users++;
  const server = await startLoopbackFauxqs({ port: opts.port ?? 0, logger: false, defaultRegion: opts.region, host: "localhost" });
  const redrive = (dlqArn: string) => JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: String(MAX_RECEIVE_COUNT) });
  let prefix = "";
  for (let n = 0; n < opts.shards; n++) {
    const fifo = { FifoQueue: "true", ContentBasedDeduplication: "false" };
    const dlq = server.createQueue(`session-commands-${n}-dlq.fifo`, { attributes: { ...fifo, MessageRetentionPeriod: "1209600" } });
    const q = server.createQueue(`session-commands-${n}.fifo`, { attributes: { ...fifo, VisibilityTimeout: "60", RedrivePolicy: redrive(dlq.queueArn) } });
    prefix = q.queueUrl.replace(/-\d+\.fifo$/, "");
  }
  const jobsDlq = server.createQueue("jobs-dlq", { attributes: { MessageRetentionPeriod: "1209600" } });
  const jobs = server.createQueue("jobs", { attributes: { VisibilityTimeout: "120", RedrivePolicy: redrive(jobsDlq.queueArn) } });
  const dispatchDlq = server.createQueue("dispatch-dlq", { attributes: { MessageRetentionPeriod: "1209600" } });
  const dispatch = server.createQueue("dispatch", { attributes: { VisibilityTimeout: "60", RedrivePolicy: redrive(dispatchDlq.queueArn) } });
  const webhooksDlq = server.createQueue("webhooks-dlq", { attributes: { MessageRetentionPeriod: "1209600" } });
  const webhooks = server.createQueue("webhooks", { attributes: { VisibilityTimeout: "60", RedrivePolicy: redrive(webhooksDlq.queueArn) } });
  const pushDlq = server.createQueue("push-dlq", { attributes: { MessageRetentionPeriod: "1209600" } });
  const push = server.createQueue("push", { attributes: { VisibilityTimeout: "60", RedrivePolicy: redrive(pushDlq.queueArn) } });
  return {
    // The queue URLs' own origin, so the SDK's endpoint and QueueUrl agree (no per-call endpoint switch).
    endpoint: new URL(dispatch.queueUrl).origin,
    sessionCommandsPrefix: prefix,
    dispatchQueueUrl: dispatch.queueUrl,
    dispatchDlqUrl: dispatchDlq.queueUrl,
    jobsQueueUrl: jobs.queueUrl,
    webhooksQueueUrl: webhooks.queueUrl,
    pushQueueUrl: push.queueUrl,
    async stop() {
      await server.stop();
      if (dnsPatch && --dnsPatch.users === 0) {
        dnsPatch.restore();
        dnsPatch = undefined;
      }
    },
  };
}
