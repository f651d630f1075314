/**
 * DynamoDB Local for the benchmarks: `infra/local`'s `startDynamo`, retried (a loaded machine can take longer than its
 * 30 s to start Java). Each failed attempt's process is stopped by `startDynamo` itself.
 */
import { startDynamo, type DynamoHandle } from "../../infra/local/src/dynamo.ts";

/** Starts DynamoDB Local in memory, up to `attempts` times. */
export async function startBenchDynamo(attempts = 5): Promise<DynamoHandle> {
  for (let i = 1; ; i++) {
    try {
      return await startDynamo();
    } catch (err) {
      if (i >= attempts) throw err;
      console.log(`DynamoDB Local did not start (attempt ${i}/${attempts}); retrying`);
    }
  }
}
