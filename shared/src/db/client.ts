/**
 * The DynamoDB document client singleton. The endpoint comes from `AWS_ENDPOINT_URL_DYNAMODB`
 * (DynamoDB Local on one machine), read by the SDK itself: no handler knows where it runs.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { getConfig } from "../config.ts";
import { createTableInput, TTL_ATTRIBUTE } from "./table.ts";
import { sdkLogger } from "../log.ts";

let doc: DynamoDBDocumentClient | undefined;

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
    doc = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return doc;
}

/** The configured table name. */
export function tableName(): string {
  return getConfig().TABLE_NAME;
}

/** Drops the cached client (tests that switch endpoints). */
export function resetDdb(): void {
  doc = undefined;
}

/**
 * Creates the table from the shared definition if it does not exist (local stack and tests; CDK creates it in the cloud).
 * Idempotent. Resolves when the table is ACTIVE.
 */
export async function ensureTable(name = tableName()): Promise<void> {
  const raw = ddb();
  try {
    await raw.send(new DescribeTableCommand({ TableName: name }));
    return;
  } catch (err) {
    if ((err as Error).name !== "ResourceNotFoundException") throw err;
  }
  try {
    await raw.send(new CreateTableCommand(createTableInput(name)));
  } catch (err) {
    if ((err as Error).name !== "ResourceInUseException") throw err;
  }
  try {
    await raw.send(
      new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }),
    );
  } catch {
    // DynamoDB Local versions differ in TTL support; TTL is cleanup only, so its absence changes no behaviour.
  }
}
