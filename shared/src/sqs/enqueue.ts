/**
 * SQS producer (named `sqs/` so it is not confused with the attendance queues of `queues/`): the same `@aws-sdk/client-sqs` calls in the cloud and on one machine
 * (fauxqs, through `AWS_ENDPOINT_URL_SQS`). Bodies are JSON; consumers parse them with zod.
 */
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { getConfig } from "../config.ts";
import { sdkLogger } from "../log.ts";

let sqs: SQSClient | undefined;
/** The shared SQS client. */
export function sqsClient(): SQSClient {
  sqs ??= new SQSClient({ region: getConfig().AWS_REGION, logger: sdkLogger });
  return sqs;
}
/** Forgets the client (tests and the local stack). */
export function resetSqs(): void {
  sqs = undefined;
}

export interface EnqueueOptions {
  /** FIFO only: the ordering group (session commands: the whatsappId). */
  groupId?: string;
  /** FIFO only: deduplication id (session commands: our command id). */
  dedupeId?: string;
  /** Standard queues only: 0-900 s. */
  delaySeconds?: number;
}

/**
 * JSON for an SQS body with characters outside the Basic Multilingual Plane (emoji) written as `\uXXXX` surrogate
 * escapes: `JSON.parse` restores them, and SQS stand-ins that only accept #x20-#xFFFD (fauxqs) take the body.
 */
export function sqsJson(body: unknown): string {
  return JSON.stringify(body).replace(/[\u{10000}-\u{10FFFF}]/gu, (c) =>
    c
      .split("")
      .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`)
      .join(""),
  );
}

/** Sends one JSON message to `queueUrl`. Throws the SDK error when SQS refuses it. */
export async function enqueue(queueUrl: string, body: unknown, opts: EnqueueOptions = {}): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: sqsJson(body),
      MessageGroupId: opts.groupId,
      MessageDeduplicationId: opts.dedupeId,
      DelaySeconds: opts.delaySeconds,
    }),
  );
}

/**
 * Sends JSON messages to a standard queue, ten per SendMessageBatch call. Returns the bodies SQS refused (to retry
 * later); throws the SDK error when a call fails as a whole.
 */
export async function enqueueBatch<T>(queueUrl: string, bodies: T[]): Promise<T[]> {
  const refused: T[] = [];
  for (let i = 0; i < bodies.length; i += 10) {
    const chunk = bodies.slice(i, i + 10);
    const out = await sqsClient().send(
      new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: chunk.map((b, n) => ({ Id: String(n), MessageBody: sqsJson(b) })) }),
    );
    for (const f of out.Failed ?? []) refused.push(chunk[Number(f.Id)]);
  }
  return refused;
}
