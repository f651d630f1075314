/**
 * BatchGetItem over any number of keys (chunks of 100, parallel, `UnprocessedKeys` retried with backoff).
 * Used to hydrate list pages (the few distinct contacts, queues, users and connections of a ticket page) in one round trip.
 */
import { BatchGetCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "./client.ts";

export type ItemKey = { PK: string; SK: string };

/** Reads the items at `keys` (duplicates removed); returns them by `"<PK>|<SK>"`. Missing items are absent from the map. */
export async function batchGetRaw(keys: ItemKey[], consistent = false): Promise<Map<string, Record<string, unknown>>> {
  const unique = [...new Map(keys.map((k) => [`${k.PK}|${k.SK}`, k])).values()];
  const out = new Map<string, Record<string, unknown>>();
  const chunks: ItemKey[][] = [];
  for (let i = 0; i < unique.length; i += 100) chunks.push(unique.slice(i, i + 100));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending: ItemKey[] = chunk;
      for (let attempt = 0; pending.length; attempt++) {
        const res = await ddb().send(
          new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } } }),
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
