/**
 * DynamoDB Local for the benchmarks: `infra/local`'s `startDynamo` (shared DB; in memory, or persisted in `dataDir`
 * for `--keepDb`) with a patient start (up to 3 minutes on a loaded machine). The handle carries the Java process's
 * pid for CPU accounting.
 */
import { type DynamoHandle, startDynamo } from "../../infra/local/src/dynamo.ts";

/**
 * Starts DynamoDB Local (in memory unless `dataDir`; on `port`, else a free one) and resolves when it answers
 * `ListTables` (at most `timeoutMs`).
 */
export function startBenchDynamo(timeoutMs = 180_000, dataDir?: string, port?: number): Promise<DynamoHandle> {
  return startDynamo({ startLimitMs: timeoutMs, dataDir, port });
}
