/**
 * Baileys auth state in DynamoDB, one item per key (docs/architecture.md#7-the-session-runner-session-runner):
 * - `WA#<wid>` / `CREDS`: the `AuthenticationCreds`, serialized with Baileys' `BufferJSON.replacer`;
 * - `WA#<wid>` / `K#<type>#<id>`: one item per signal key of any `SignalDataTypeMap` type (types are not hard-coded);
 *   `app-state-sync-key` values are revived with `proto.Message.AppStateSyncKeyData.fromObject`.
 * Every write carries the shard lease `epoch` and is fenced: a leased owner first claims the creds item with its epoch
 * ({@link claimAuthState}); the creds write is conditional (`epoch <= mine`), and key writes go in transactions that
 * check the same condition on the creds item, so a deposed owner can overwrite neither creds nor keys once a newer
 * owner has claimed the connection (epoch 0, the unleased simulator, writes unfenced). The key store is wrapped with Baileys' `makeCacheableSignalKeyStore`;
 * `makeWASocket` itself adds `addTransactionCapability` on top (with the `transactionOpts` we pass).
 */
import { BatchGetCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  BufferJSON,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from "@whiskeysockets/baileys";
import { BATCH_WRITE_MAX_ATTEMPTS, batchWriteAll, type WriteRequest } from "@atende/shared/db/batch";
import { ddb, tableName } from "@atende/shared/db/client";
import { queryPages } from "@atende/shared/db/query";
import { failedConditionAt, isConditionFailed, withConflictRetry } from "@atende/shared/db/errors";
import { keys } from "@atende/shared/db/keys";

import { FencedError } from "./errors.ts";
export { FencedError };

/** The fence every auth-state write checks on the creds item: no newer lease epoch than ours (`:e`) wrote it. */
const FENCE = "attribute_not_exists(epoch) OR epoch <= :e";

const serialize = (v: unknown) => JSON.stringify(v, BufferJSON.replacer);
const deserialize = <T>(s: string): T => JSON.parse(s, BufferJSON.reviver) as T;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads the stored creds of a connection, or null when it was never paired (or was wiped). */
export async function loadCreds(whatsappId: number): Promise<AuthenticationCreds | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.waCreds(whatsappId), ConsistentRead: true }));
  return out.Item?.value ? deserialize<AuthenticationCreds>(out.Item.value as string) : null;
}

/**
 * Writes the creds of a connection with lease `epoch` (0 when no lease is used, e.g. the simulator).
 * Throws {@link FencedError} when a newer epoch already wrote them.
 */
export async function saveCreds(whatsappId: number, creds: AuthenticationCreds, epoch: number): Promise<void> {
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.waCreds(whatsappId), _type: "waCreds", value: serialize(creds), epoch, updatedAt: new Date().toISOString() },
        ConditionExpression: FENCE,
        ExpressionAttributeValues: { ":e": epoch },
      }),
    );
  } catch (err) {
    if (isConditionFailed(err)) throw new FencedError(whatsappId);
    throw err;
  }
}

/**
 * Claims a connection's auth state for lease `epoch` (> 0): stamps the creds item (created when absent, its stored
 * creds untouched) with the epoch unless a newer one holds it. Throws {@link FencedError} when a newer epoch does.
 */
export async function claimAuthState(whatsappId: number, epoch: number): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.waCreds(whatsappId),
        UpdateExpression: "SET epoch = :e, #t = :t",
        ConditionExpression: FENCE,
        ExpressionAttributeNames: { "#t": "_type" },
        ExpressionAttributeValues: { ":e": epoch, ":t": "waCreds" },
      }),
    );
  } catch (err) {
    if (isConditionFailed(err)) throw new FencedError(whatsappId);
    throw err;
  }
}

/** Writes key puts/deletes in transactions of 99 that each check the creds item's epoch first (the fence). */
async function fencedWriteAll(whatsappId: number, epoch: number, requests: WriteRequest[]): Promise<void> {
  const fence = {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.waCreds(whatsappId),
      ConditionExpression: FENCE,
      ExpressionAttributeValues: { ":e": epoch },
    },
  };
  for (let i = 0; i < requests.length; i += 99) {
    const items = requests
      .slice(i, i + 99)
      .map((r) => ("PutRequest" in r ? { Put: { TableName: tableName(), Item: r.PutRequest.Item } } : { Delete: { TableName: tableName(), Key: r.DeleteRequest.Key } }));
    try {
      await withConflictRetry(() => ddb().send(new TransactWriteCommand({ TransactItems: [fence, ...items] })));
    } catch (err) {
      if (failedConditionAt(err, 0)) throw new FencedError(whatsappId);
      throw err;
    }
  }
}

async function batchGetAll(requestKeys: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < requestKeys.length; i += 100) {
    let pending: Record<string, unknown>[] = requestKeys.slice(i, i + 100);
    for (let attempt = 1; pending.length; attempt++) {
      const res = await ddb().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
      out.push(...(res.Responses?.[tableName()] ?? []));
      pending = (res.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[] | undefined) ?? [];
      // Bounded: after BATCH_WRITE_MAX_ATTEMPTS reads the caller sees the throttling instead of a hang.
      if (pending.length && attempt >= BATCH_WRITE_MAX_ATTEMPTS) throw new Error(`auth state: ${pending.length} keys still unprocessed after ${attempt} reads`);
      if (pending.length) await sleep(Math.min(1000, 25 * 2 ** attempt));
    }
  }
  return out;
}


/**
 * The raw (uncached) signal key store of a connection: BatchGetItem reads; writes and deletes fenced by `epoch` when
 * leased (transactions checking the creds item, {@link FencedError} once a newer owner claimed it), else BatchWriteItem.
 */
export function dynamoSignalKeyStore(whatsappId: number, epoch: number, onFenced?: () => void): SignalKeyStore {
  return {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const result: { [id: string]: SignalDataTypeMap[T] } = {};
      if (!ids.length) return result;
      const items = await batchGetAll(ids.map((id) => keys.waKey(whatsappId, type, id)));
      for (const it of items) {
        const id = it.keyId as string;
        let value = deserialize<unknown>(it.value as string);
        if (type === "app-state-sync-key" && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
        result[id] = value as SignalDataTypeMap[T];
      }
      return result;
    },
    async set(data: SignalDataSet) {
      const requests: WriteRequest[] = [];
      for (const type of Object.keys(data) as (keyof SignalDataTypeMap)[]) {
        for (const [id, value] of Object.entries(data[type] ?? {})) {
          const key = keys.waKey(whatsappId, type, id);
          requests.push(
            value === null || value === undefined
              ? { DeleteRequest: { Key: key } }
              : { PutRequest: { Item: { ...key, _type: "waKey", keyType: type, keyId: id, value: serialize(value), epoch } } },
          );
        }
      }
      if (epoch === 0) return batchWriteAll(requests);
      try {
        await fencedWriteAll(whatsappId, epoch, requests);
      } catch (err) {
        if (err instanceof FencedError) onFenced?.();
        throw err;
      }
    },
    async clear() {
      await wipeAuthState(whatsappId);
    },
  };
}

/** Deletes every auth item of a connection (creds and keys): the next start shows a new QR. */
export async function wipeAuthState(whatsappId: number): Promise<void> {
  for await (const items of queryPages({ KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": keys.waPartition(whatsappId) }, ProjectionExpression: "PK, SK" })) {
    await batchWriteAll(items.map((it) => ({ DeleteRequest: { Key: { PK: it.PK, SK: it.SK } } })));
  }
}

/** Minimal logger shape Baileys' helpers accept (pino in production). */
type Logger = Parameters<typeof makeCacheableSignalKeyStore>[1];

/**
 * The auth state to give `makeWASocket({ auth })` for a connection: stored creds (or fresh `initAuthCreds()`) and the
 * DynamoDB key store behind Baileys' `makeCacheableSignalKeyStore`. Call `persistCreds()` on every `creds.update`.
 * A leased owner (`epoch` > 0) claims the auth state first; throws {@link FencedError} when a newer owner holds it.
 * `onFenced` is called when a later key write finds a newer owner (the caller ends its socket).
 */
export async function openDynamoAuthState(
  whatsappId: number,
  epoch: number,
  logger?: Logger,
  onFenced?: () => void,
): Promise<{ state: AuthenticationState; persistCreds: () => Promise<void> }> {
  if (epoch > 0) await claimAuthState(whatsappId, epoch);
  const creds = (await loadCreds(whatsappId)) ?? initAuthCreds();
  const state: AuthenticationState = { creds, keys: makeCacheableSignalKeyStore(dynamoSignalKeyStore(whatsappId, epoch, onFenced), logger) };
  return { state, persistCreds: () => saveCreds(whatsappId, state.creds, epoch) };
}
