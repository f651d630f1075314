/**
 * Test harness for the connections API and the session runner (used by `*.test.ts` only):
 * - {@link startQueues}: fauxqs in-process with the shard FIFO command queues, the SDK pointed at it through
 *   `AWS_ENDPOINT_URL_SQS` and `SESSION_COMMANDS_QUEUE_URL_PREFIX`;
 * - {@link startRealtimeCapture}: a stand-in for the API Gateway `@connections` management endpoint that records every
 *   frame posted to a connection id, plus {@link registerSocket} to put a browser socket of a user in a company room.
 */
import { registerSocket as registerRoomSocket, startRealtimeCapture } from "@atende/shared/users/realtime-capture.testkit";
import { randomUUID } from "node:crypto";
import { CreateQueueCommand, DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { interceptLocalhostDns, type FauxqsServer } from "fauxqs";
import { startLoopbackFauxqs } from "../../../infra/local/src/sqs.ts";
import { resetConfig, getConfig } from "@atende/shared/config";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { resetSqs, sqsClient } from "@atende/shared/sqs/enqueue";
import { commandQueueUrl, SessionCommand } from "@atende/shared/whatsapp/commands";

export interface Queues {
  server: FauxqsServer;
  /** Receives and deletes every command currently visible in a shard queue, oldest first. */
  drain(shard: number): Promise<SessionCommand[]>;
  stop(): Promise<void>;
}

/** Starts fauxqs on a free port and creates `SESSION_SHARDS` FIFO command queues. */
export async function startQueues(opts: { visibilityTimeoutSeconds?: number } = {}): Promise<Queues> {
  const server = await startLoopbackFauxqs({ port: 0, logger: false });
  // Queue URLs are `http://sqs.<region>.localhost:<port>/...`: resolve `*.localhost` to 127.0.0.1 in this process.
  const restoreDns = interceptLocalhostDns();
  process.env.AWS_ENDPOINT_URL_SQS = server.address;
  resetConfig();
  resetSqs();
  const prefix = `sc-${randomUUID().slice(0, 8)}`;
  const shards = getConfig().SESSION_SHARDS;
  let base = "";
  for (let n = 0; n < shards; n++) {
    const out = await sqsClient().send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${n}.fifo`,
        Attributes: { FifoQueue: "true", ContentBasedDeduplication: "false", VisibilityTimeout: String(opts.visibilityTimeoutSeconds ?? 30) },
      }),
    );
    base = out.QueueUrl!.replace(/-\d+\.fifo$/, "");
  }
  process.env.SESSION_COMMANDS_QUEUE_URL_PREFIX = base;
  resetConfig();
  return {
    server,
    async drain(shard) {
      const got: SessionCommand[] = [];
      for (;;) {
        const out = await sqsClient().send(
          new ReceiveMessageCommand({ QueueUrl: commandQueueUrl(shard), MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 30 }),
        );
        if (!out.Messages?.length) return got;
        for (const m of out.Messages) {
          got.push(SessionCommand.parse(JSON.parse(m.Body!)));
          await sqsClient().send(new DeleteMessageCommand({ QueueUrl: commandQueueUrl(shard), ReceiptHandle: m.ReceiptHandle! }));
        }
      }
    },
    async stop() {
      await server.stop();
      restoreDns();
    },
  };
}

export type { CapturedFrame as Frame } from "@atende/shared/users/realtime-capture.testkit";
export type RealtimeCapture = Awaited<ReturnType<typeof startRealtimeCapture>>;
/** A local `@connections` endpoint recording every posted frame (the shared test kit's). */
export { startRealtimeCapture };

/** Registers a live browser socket of a user in the company room; returns its connection id. */
export function registerSocket(companyId: number, userId: number, profile: "admin" | "user", queueIds: number[] = []): Promise<string> {
  return registerRoomSocket(companyId, { id: userId, profile, queueIds });
}

/** Writes a queue item of a company straight to the table (the queues service is another team's). */
export async function makeQueue(companyId: number, id: number, name = `Fila ${id}`): Promise<void> {
  const now = new Date().toISOString();
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.queue(companyId, id), _type: "queue", id, companyId, name, color: `#00${String(id).padStart(4, "0")}`, greetingMessage: "", outOfHoursMessage: "", orderQueue: null, integrationId: null, promptId: null, schedules: [], createdAt: now, updatedAt: now },
    }),
  );
}

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw last instanceof Error ? last : new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
