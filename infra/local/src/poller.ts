/**
 * A local stand-in for Lambda's SQS event source mapping (docs/architecture.md#2-one-machine-npm-start): long-polls a queue, invokes
 * the consumer handler with an SQS-shaped event, deletes the records that succeeded and leaves the ones named in
 * `batchItemFailures` (ReportBatchItemFailures) to become visible again and be redelivered — up to the queue's
 * redrive policy, after which SQS moves them to the DLQ. A handler that throws fails the whole batch, as in Lambda.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message } from "@aws-sdk/client-sqs";
import { sqsClient } from "@atende/shared/sqs/enqueue";
import { getConfig } from "@atende/shared/config";

/** One record of the `SQSEvent` Lambda delivers. */
export interface SqsRecord {
  messageId: string;
  receiptHandle: string;
  body: string;
  attributes: Record<string, string>;
  messageAttributes: Record<string, { stringValue?: string; binaryValue?: string; dataType: string }>;
  md5OfBody: string;
  eventSource: "aws:sqs";
  eventSourceARN: string;
  awsRegion: string;
}
export interface SqsEvent {
  Records: SqsRecord[];
}
/** `{batchItemFailures: [{itemIdentifier: messageId}]}`; void/undefined means every record succeeded. */
export type SqsBatchResponse = { batchItemFailures: { itemIdentifier: string }[] } | undefined;
export type SqsHandler = (event: SqsEvent, context: unknown) => Promise<SqsBatchResponse>;

export interface PollOptions {
  queueUrl: string;
  handler: SqsHandler;
  /** Records per invocation (1-10, default 10). */
  batchSize?: number;
  /** Long-poll wait per receive, in seconds (0-20, default 1 so stop is quick). */
  waitTimeSeconds?: number;
  /** Called with errors of the poll loop itself (receive/delete), never with handler failures. */
  onError?: (err: unknown) => void;
}

export interface Poller {
  /** Stops receiving; resolves once the in-flight batch (if any) has been handled. */
  stop(): Promise<void>;
}

/** The queue ARN a queue URL names (`arn:aws:sqs:<region>:<account>:<name>`), for `eventSourceARN`. */
export function queueArnOf(queueUrl: string, region: string): string {
  const [, account, name] = new URL(queueUrl).pathname.split("/");
  return `arn:aws:sqs:${region}:${account}:${name}`;
}

function toRecord(m: Message, arn: string, region: string): SqsRecord {
  const messageAttributes: SqsRecord["messageAttributes"] = {};
  for (const [k, v] of Object.entries(m.MessageAttributes ?? {})) {
    messageAttributes[k] = {
      dataType: v.DataType ?? "String",
      ...(v.StringValue !== undefined ? { stringValue: v.StringValue } : {}),
      ...(v.BinaryValue !== undefined ? { binaryValue: Buffer.from(v.BinaryValue).toString("base64") } : {}),
    };
  }
  return {
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body ?? "",
    attributes: (m.Attributes ?? {}) as Record<string, string>,
    messageAttributes,
    md5OfBody: m.MD5OfBody ?? "",
    eventSource: "aws:sqs",
    eventSourceARN: arn,
    awsRegion: region,
  };
}

/** Starts polling `queueUrl` until `stop()`; see the module doc for the delivery semantics. */
export function pollQueue(opts: PollOptions): Poller {
  const region = getConfig().AWS_REGION;
  const arn = queueArnOf(opts.queueUrl, region);
  const batchSize = Math.min(10, Math.max(1, opts.batchSize ?? 10));
  const wait = Math.min(20, Math.max(0, opts.waitTimeSeconds ?? 1));
  const abort = new AbortController();
  let stopped = false;

  const loop = (async () => {
    while (!stopped) {
      let messages: Message[] = [];
      try {
        const out = await sqsClient().send(
          new ReceiveMessageCommand({
            QueueUrl: opts.queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: wait,
            MessageSystemAttributeNames: ["All"],
            MessageAttributeNames: ["All"],
          }),
          { abortSignal: abort.signal },
        );
        messages = out.Messages ?? [];
      } catch (err) {
        if (stopped) break;
        opts.onError?.(err);
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (!messages.length) continue;
      const records = messages.map((m) => toRecord(m, arn, region));
      let failed = new Set<string>();
      try {
        const res = await opts.handler({ Records: records }, { functionName: "local-poller", awsRequestId: records[0].messageId });
        failed = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch {
        failed = new Set(records.map((r) => r.messageId));
      }
      const done = records.filter((r) => !failed.has(r.messageId));
      if (!done.length) continue;
      try {
        await sqsClient().send(
          new DeleteMessageBatchCommand({
            QueueUrl: opts.queueUrl,
            Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
          }),
        );
      } catch (err) {
        opts.onError?.(err);
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      abort.abort();
      await loop;
    },
  };
}
