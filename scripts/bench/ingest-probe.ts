/**
 * Where DynamoDB Local's CPU for one ingested message goes (`--ratioProbe` of the ratio section): one steady-state
 * ingest transaction is captured as sent and replayed whole and without each of its items in turn (puts under fresh
 * sort keys, the ticket update on the bench's tickets without its revision condition), and with the ticket's packed row
 * sent again as before it left out what a message changes; printed are each item's bytes and its share of DynamoDB
 * Local's CPU per transaction, and the stored ticket item's attribute sizes.
 */
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { load } from "./stats.ts";

// biome-ignore lint/suspicious/noExplicitAny: raw SDK command inputs of every shape
type Tx = Record<string, any>;

/** Runs `ingest` once and returns the items of the `TransactWriteItems` it sent (its first). */
export async function captureIngestTransaction(ingest: () => Promise<void>): Promise<Tx[]> {
  const name = `probe${Math.random().toString(36).slice(2)}`;
  let captured: Tx[] | undefined;
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Tx;
      if (!captured && /TransactWrite/.test(String((context as { commandName?: string }).commandName))) captured = structuredClone(input.TransactItems);
      return next(args);
    },
    { step: "initialize", name },
  );
  try {
    await ingest();
  } finally {
    ddb().middlewareStack.remove(name);
  }
  if (!captured) throw new Error("the ingest sent no transaction");
  return captured;
}

const json = (x: unknown) => (x === undefined ? 0 : JSON.stringify(x).length);

/** What one captured transaction item is, for the table. */
function label(t: Tx): string {
  const op = t.Put ?? t.Update ?? t.Delete;
  const key = op.Item ?? op.Key;
  const kind = t.Put ? "Put" : t.Update ? "Update" : "Delete";
  return `${kind} ${String(op.Item?._type ?? key.PK).replace(/\d+/g, "n")}`;
}

/** The item replayed alone as op `i` (fresh sort key for a put; the ticket update on ticket `i` of `ticketKeys`). */
function replayOf(t: Tx, i: number, tag: string, ticketKeys: { PK: string; SK: string }[]): Tx {
  if (t.Put) return { Put: { ...t.Put, Item: { ...t.Put.Item, SK: `${t.Put.Item.SK}#${tag}${i}` } } };
  const u = t.Update;
  const values = { ...u.ExpressionAttributeValues };
  delete values[":revWas"];
  return { Update: { ...u, Key: ticketKeys[i % ticketKeys.length], ConditionExpression: "attribute_exists(PK)", ExpressionAttributeValues: values } };
}

/**
 * Replays the whole transaction, and the transaction without each of its items in turn, `perVariant` times each at
 * `concurrency` in flight, `rounds` times alternated: an item's cost is the whole's less the one without it. Returns per
 * variant its bytes and DynamoDB Local's (and this process's) CPU ms per transaction, plus the stored ticket's
 * attribute sizes (largest first).
 */
export async function probeTransaction(opts: {
  items: Tx[];
  ticketKeys: { PK: string; SK: string }[];
  perVariant: number;
  rounds: number;
  concurrency: number;
  cpu: () => { node: number; ddb: number };
}) {
  const size = (t: Tx) => json(t.Put?.Item ?? t.Update?.ExpressionAttributeValues);
  const whole = { label: "whole transaction", items: opts.items, bytes: opts.items.reduce((a, t) => a + size(t), 0) };
  const stored0 = (await ddb().send(new GetCommand({ TableName: tableName(), Key: opts.ticketKeys[0], ConsistentRead: true }))).Item ?? {};
  // The same transaction with the ticket's packed row sent again (as every message did before the row left out what
  // a message changes): the row's own cost, measured in the same rounds.
  const withRow = opts.items.map((t) => {
    const u = t.Update;
    if (!u || !/, rowRev :one/.test(u.UpdateExpression) || typeof stored0.row !== "string") return t;
    const expr = u.UpdateExpression.replace(", rowRev :one", "").replace(/^SET /, "SET #row = :row, rowRev = :rowRev, ");
    return { Update: { ...u, UpdateExpression: expr, ExpressionAttributeNames: { ...u.ExpressionAttributeNames, "#row": "row" }, ExpressionAttributeValues: { ...u.ExpressionAttributeValues, ":row": stored0.row, ":rowRev": 0 } } };
  });
  const rowVariant = withRow.some((t, k) => t !== opts.items[k]) ? [{ label: "whole, the row sent again", items: withRow, bytes: withRow.reduce((a, t) => a + size(t), 0) }] : [];
  const variants = [whole, ...opts.items.map((t, k) => ({ label: `without ${label(t)}`, items: opts.items.filter((_, j) => j !== k), bytes: size(t) })), ...rowVariant].map((v) => ({ ...v, node: 0, ddb: 0, n: 0 }));
  let seq = 0;
  for (let r = 0; r < opts.rounds; r++) {
    for (const v of variants) {
      const tag = `P${r}x${seq++}x`;
      const a = opts.cpu();
      await load(opts.perVariant, opts.concurrency, (i) =>
        ddb().send(new TransactWriteCommand({ TransactItems: v.items.map((t) => replayOf(t, i, tag, opts.ticketKeys)) })).then(() => undefined),
      );
      const b = opts.cpu();
      v.node += b.node - a.node;
      v.ddb += b.ddb - a.ddb;
      v.n += opts.perVariant;
    }
  }
  const stored = (await ddb().send(new GetCommand({ TableName: tableName(), Key: opts.ticketKeys[0], ConsistentRead: true }))).Item ?? {};
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const per = (v: (typeof variants)[number]) => ({ ddb: v.ddb / v.n, node: v.node / v.n });
  const w = per(variants[0]);
  return {
    items: variants.map((v, k) => ({
      variant: v.label,
      bytes: v.bytes,
      ddbMs: r2(per(v).ddb),
      nodeMs: r2(per(v).node),
      ...(k ? { itemDdbMs: r2((w.ddb - per(v).ddb) * (v.items.length > opts.items.length - 1 ? -1 : 1)), itemNodeMs: r2((w.node - per(v).node) * (v.items.length > opts.items.length - 1 ? -1 : 1)) } : {}),
    })),
    ticket: { bytes: json(stored), attributes: Object.entries(stored).map(([k, v]) => ({ attribute: k, bytes: json(v) })).sort((a, b) => b.bytes - a.bytes) },
  };
}
