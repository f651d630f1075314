/**
 * The DynamoDB document client singleton. The endpoint comes from `AWS_ENDPOINT_URL_DYNAMODB`
 * (DynamoDB Local on one machine), read by the SDK itself: no handler knows where it runs.
 */
import { CreateTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient, UpdateTimeToLiveCommand } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { keys } from "./keys.ts";
import { getConfig } from "../config.ts";
import { createTableInput, TTL_ATTRIBUTE } from "./table.ts";
import { sdkLogger } from "../log.ts";

let doc: DynamoDBDocumentClient | undefined;
let raw: DynamoDBClient | undefined;

/** One item of a `TransactWriteItems` call (Put, Update, Delete or ConditionCheck), as repositories build them. */
export type TxItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/** Writes `items` in one `TransactWriteItems` call: all or nothing (a failed condition cancels every item). */
export async function transactWrite(items: TxItem[]): Promise<void> {
  await ddb().send(new TransactWriteCommand({ TransactItems: items }));
}


/** The shared document client (`removeUndefinedValues` on). */
export function ddb(): DynamoDBDocumentClient {
  if (!doc) {
    const client = new DynamoDBClient({ region: getConfig().AWS_REGION, maxAttempts: 5, logger: sdkLogger });
    raw = client;
    doc = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return doc;
}

/**
 * The low-level client under {@link ddb} (same connections and retries): items as DynamoDB returns them
 * (`{N: "12"}`), for a hot read that sums numbers and needs no document conversion (the dashboard's period read).
 */
export function rawDdb(): DynamoDBClient {
  ddb();
  return raw as DynamoDBClient;
}

/** The configured table name. */
export function tableName(): string {
  return getConfig().TABLE_NAME;
}

/** Drops the cached client (tests that switch endpoints). */
export function resetDdb(): void {
  doc = undefined;
  raw = undefined;
}

/**
 * Creates the table from the shared definition if it does not exist (local stack and tests; CDK creates it in the cloud).
 * Idempotent. Resolves when the table is ACTIVE.
 *
 * `ttl` (default true): TTL deletion on `expiresAt`, as in the cloud. `false` switches it off (also on an existing
 * table), for the benchmarks' large tables: DynamoDB Local emulates TTL with a job that scans the WHOLE table every few
 * seconds under its write lock (measured: 0.5-1 s of CPU per sweep at 300k items, requests stalled meanwhile), work
 * AWS does out of band without touching the table's request path. No behaviour depends on it: readers compare
 * `expiresAt` with the clock, TTL is cleanup only.
 */
export async function ensureTable(name = tableName(), opts: { ttl?: boolean } = {}): Promise<void> {
  const raw = ddb();
  const ttl = opts.ttl ?? true;
  const existed = await raw.send(new DescribeTableCommand({ TableName: name })).then(
    () => true,
    (err: Error) => {
      if (err.name !== "ResourceNotFoundException") throw err;
      return false;
    },
  );
  if (!existed) {
    try {
      await raw.send(new CreateTableCommand(createTableInput(name)));
    } catch (err) {
      if ((err as Error).name !== "ResourceInUseException") throw err;
    }
    // A table born now holds no message alias of the older layout (`messages/repository.ts` `mergedAliasesSince`).
    await raw.send(new PutCommand({ TableName: name, Item: { ...keys.messageAliasLayout(), _type: "layout", since: 0 } }));
  } else if (ttl) return; // an existing table keeps its TTL; only switching it off is worth a call
  try {
    const status = (await raw.send(new DescribeTimeToLiveCommand({ TableName: name }))).TimeToLiveDescription?.TimeToLiveStatus;
    if (ttl === (status === "ENABLED")) return;
    await raw.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: ttl } }));
  } catch {
    // DynamoDB Local versions differ in TTL support; TTL is cleanup only, so its absence changes no behaviour.
  }
}
