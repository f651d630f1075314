/**
 * BatchGetItem over any number of keys (chunks of 100, parallel, `UnprocessedKeys` retried with backoff).
 * Used to hydrate list pages (the few distinct contacts, queues, users and connections of a ticket page) in one round trip.
 * BatchWriteItem over any number of requests ({@link batchWriteAll}: `UnprocessedItems` retried, bounded).
 */
import { BatchGetCommand, BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "./client.ts";

export type ItemKey = { PK: string; SK: string };

/**
 * Reads the items at `keys` (duplicates removed); returns them by `"<PK>|<SK>"`. Missing items are absent from the map.
 * With `projection`, only those attributes (the expression must name `PK` and `SK`, the map's keys).
 */
export async function batchGetRaw(
  keys: ItemKey[],
  consistent = false,
  projection?: { expression: string; names: Record<string, string> },
): Promise<Map<string, Record<string, unknown>>> {
  const unique = [...new Map(keys.map((k) => [`${k.PK}|${k.SK}`, k])).values()];
  const out = new Map<string, Record<string, unknown>>();
  const chunks: ItemKey[][] = [];
  for (let i = 0; i < unique.length; i += 100) chunks.push(unique.slice(i, i + 100));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending: ItemKey[] = chunk;
      for (let attempt = 0; pending.length; attempt++) {
        const res = await ddb().send(
          new BatchGetCommand({
            RequestItems: {
              [tableName()]: {
                Keys: pending,
                ConsistentRead: consistent,
                ...(projection ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: projection.names } : {}),
              },
            },
          }),
        );
        for (const it of res.Responses?.[tableName()] ?? []) out.set(`${it.PK}|${it.SK}`, it);
        pending = (res.UnprocessedKeys?.[tableName()]?.Keys ?? []) as ItemKey[];
        if (pending.length) {
          if (attempt >= 8) throw new Error("BatchGet: unprocessed keys after retries");
          await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
        }
      }
    }),
  );
  return out;
}

/** `"<PK>|<SK>"` of a key, the lookup key of {@link batchGetRaw}'s map. */
export const keyId = (k: ItemKey) => `${k.PK}|${k.SK}`;

/** One BatchWriteItem request. */
export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: ItemKey | Record<string, unknown> } };

/** How many times one chunk is sent before its `UnprocessedItems` are given up on (an error is thrown). */
export const BATCH_WRITE_MAX_ATTEMPTS = 8;

/**
 * Writes every request with BatchWriteItem (chunks of 25, one at a time). `UnprocessedItems` are re-sent with
 * exponential backoff and jitter (25 ms doubling, at most 1 s) up to {@link BATCH_WRITE_MAX_ATTEMPTS} sends per chunk;
 * then it throws `Error("BatchWrite: N unprocessed items after retries")`, so nothing is dropped silently and no loop
 * runs forever. Errors of the call itself (after the SDK's own retries) propagate.
 */
export async function batchWriteAll(requests: WriteRequest[], opts: { maxAttempts?: number } = {}): Promise<void> {
  const max = opts.maxAttempts ?? BATCH_WRITE_MAX_ATTEMPTS;
  for (let i = 0; i < requests.length; i += 25) {
    let pending = requests.slice(i, i + 25);
    for (let attempt = 1; pending.length; attempt++) {
      const res = await ddb().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (res.UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
      if (!pending.length) break;
      if (attempt >= max) throw new Error(`BatchWrite: ${pending.length} unprocessed items after retries`);
      await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2)));
    }
  }
}
