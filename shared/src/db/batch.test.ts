import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { batchWriteAll } from "./batch.ts";
import { ddb, tableName } from "./client.ts";

const MW = "test-unprocessed-items";

/**
 * Fault injection: for the next `times` BatchWriteItem calls DynamoDB (Local) receives only the first request; the
 * rest come back as `UnprocessedItems`, as a throttled table answers.
 */
function withholdBatchWrites(times: number): { calls: () => number } {
  let calls = 0;
  ddb().middlewareStack.add(
    (next, context) => async (args: any) => {
      if (context.commandName !== "BatchWriteItemCommand") return next(args);
      calls++;
      if (calls > times) return next(args);
      const table = Object.keys(args.input.RequestItems)[0];
      const all = args.input.RequestItems[table];
      const out: any = await next({ ...args, input: { ...args.input, RequestItems: { [table]: all.slice(0, 1) } } });
      if (all.length > 1) out.output.UnprocessedItems = { [table]: all.slice(1) };
      return out;
    },
    { step: "initialize", priority: "high", name: MW },
  );
  return { calls: () => calls };
}

afterEach(() => {
  ddb().middlewareStack.remove(MW);
});

const item = (pk: string, i: number) => ({ PK: pk, SK: `I#${i}`, n: i });

async function exists(pk: string, i: number): Promise<boolean> {
  return !!(await ddb().send(new GetCommand({ TableName: tableName(), Key: { PK: pk, SK: `I#${i}` }, ConsistentRead: true }))).Item;
}

describe("batchWriteAll", () => {
  it("writes every item when DynamoDB leaves most of each batch unprocessed", async () => {
    const pk = `TEST#batch#${Date.now()}`;
    const fault = withholdBatchWrites(6);
    await batchWriteAll(Array.from({ length: 60 }, (_, i) => ({ PutRequest: { Item: item(pk, i) } })));
    expect(fault.calls()).toBeGreaterThan(3);
    for (let i = 0; i < 60; i++) expect(await exists(pk, i)).toBe(true);
    await batchWriteAll(Array.from({ length: 60 }, (_, i) => ({ DeleteRequest: { Key: { PK: pk, SK: `I#${i}` } } })));
    for (let i = 0; i < 60; i++) expect(await exists(pk, i)).toBe(false);
  });

  it("gives up with an error after a bounded number of sends instead of looping forever", async () => {
    const pk = `TEST#batch-stuck#${Date.now()}`;
    const fault = withholdBatchWrites(1000);
    await expect(
      batchWriteAll(Array.from({ length: 30 }, (_, i) => ({ PutRequest: { Item: item(pk, i) } })), { maxAttempts: 4 }),
    ).rejects.toThrow(/unprocessed items after retries/);
    expect(fault.calls()).toBe(4);
  });
});
