/**
 * vitest global setup: one DynamoDB Local (in memory) for the whole run. Each test file gets a fresh
 * table (see `setup-table.ts`). The endpoint reaches the SDK through `AWS_ENDPOINT_URL_DYNAMODB` only.
 */
import { startDynamo, type DynamoHandle } from "../infra/local/src/dynamo.ts";

let dynamo: DynamoHandle | undefined;

export async function setup({ provide }: { provide: (k: string, v: string) => void }) {
  dynamo = await startDynamo();
  provide("dynamoEndpoint", dynamo.endpoint);
}

export async function teardown() {
  await dynamo?.stop();
}
