/**
 * The local SQS event-source poller (docs/architecture.md#2-one-machine-npm-start) over fauxqs: SQS-shaped events, deletion of what
 * succeeded, redelivery of `batchItemFailures`, DLQ after the redrive policy's receive count.
 */
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@atende/shared/config";
import { resetSqs, sqsClient } from "@atende/shared/sqs/enqueue";
import { pollQueue, type SqsEvent, type SqsRecord } from "./poller.ts";
import { startSqs, type SqsHandle } from "./sqs.ts";

let sqs: SqsHandle;
beforeAll(async () => {
  sqs = await startSqs({ region: "us-east-1", shards: 1 });
  process.env.AWS_ENDPOINT_URL_SQS = sqs.endpoint;
  resetConfig();
  resetSqs();
});
afterAll(async () => {
  await sqs?.stop();
});

async function queuePair(name: string, maxReceiveCount: number) {
  const dlq = await sqsClient().send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const dlqArn = (await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] }))).Attributes!.QueueArn!;
  const q = await sqsClient().send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: { VisibilityTimeout: "1", RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: String(maxReceiveCount) }) },
    }),
  );
  return { url: q.QueueUrl!, dlqUrl: dlq.QueueUrl! };
}

async function depth(url: string): Promise<number> {
  const a = (await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }))).Attributes!;
  return Number(a.ApproximateNumberOfMessages) + Number(a.ApproximateNumberOfMessagesNotVisible) + Number(a.ApproximateNumberOfMessagesDelayed ?? 0);
}

describe("pollQueue", () => {
  it("invokes the consumer with SQS-shaped records, deletes successes and redelivers batchItemFailures", async () => {
    const { url } = await queuePair("poll-retry", 5);
    const seen: SqsRecord[] = [];
    let failedOnce = false;
    const poller = pollQueue({
      queueUrl: url,
      waitTimeSeconds: 1,
      handler: async (event: SqsEvent) => {
        seen.push(...event.Records);
        const retry = event.Records.find((r) => r.body === '"retry-me"');
        if (retry && !failedOnce) {
          failedOnce = true;
          return { batchItemFailures: [{ itemIdentifier: retry.messageId }] };
        }
        return { batchItemFailures: [] };
      },
    });
    for (const body of ["one", "retry-me", "two"]) {
      await sqsClient().send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(body), MessageAttributes: { kind: { DataType: "String", StringValue: "test" } } }));
    }
    await vi.waitFor(() => expect(seen.filter((r) => r.body === '"retry-me"')).toHaveLength(2), { timeout: 15000, interval: 100 });
    await vi.waitFor(async () => expect(await depth(url)).toBe(0), { timeout: 15000, interval: 100 });
    await poller.stop();

    expect(seen.filter((r) => r.body === '"one"')).toHaveLength(1);
    expect(seen.filter((r) => r.body === '"two"')).toHaveLength(1);
    const redelivered = seen.filter((r) => r.body === '"retry-me"');
    expect(redelivered.map((r) => r.attributes.ApproximateReceiveCount)).toEqual(["1", "2"]);
    expect(redelivered[0]).toMatchObject({
      eventSource: "aws:sqs",
      eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:poll-retry",
      awsRegion: "us-east-1",
      messageAttributes: { kind: { dataType: "String", stringValue: "test" } },
    });
    expect(redelivered[0].receiptHandle).toBeTruthy();
  });

  it("moves a message that keeps failing to the DLQ after maxReceiveCount, and a throwing handler fails the whole batch", async () => {
    const { url, dlqUrl } = await queuePair("poll-dlq", 2);
    let calls = 0;
    const poller = pollQueue({
      queueUrl: url,
      waitTimeSeconds: 1,
      handler: async () => {
        calls++;
        throw new Error("consumer down");
      },
    });
    await sqsClient().send(new SendMessageCommand({ QueueUrl: url, MessageBody: '"poison"' }));
    await vi.waitFor(async () => expect(await depth(dlqUrl)).toBe(1), { timeout: 20000, interval: 200 });
    await poller.stop();
    expect(calls).toBe(2);
    const dead = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: dlqUrl }));
    expect(dead.Messages?.[0]?.Body).toBe('"poison"');
    expect(await depth(url)).toBe(0);
  });
});
