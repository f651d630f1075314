/**
 * The ingest rate as a ratio to DynamoDB Local's own rate for the ingest's bare 4-item
 * transaction (alias put if absent + message put + message ref put + ticket update), both measured alternately in one
 * run at the same concurrency, and what each ingested message costs in DynamoDB calls (by command and by what it
 * reads or writes) and in `@connections` posts. Target: ratio ≥ 0.9, on an in-memory DynamoDB Local (never `--keepDb`).
 */
import { loadavg } from "node:os";
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { keys, pad } from "../../shared/src/db/keys.ts";
import { messageRecord } from "../../shared/src/messages/repository.ts";
import { MessageItem } from "../../shared/src/messages/schema.ts";
import { load } from "./stats.ts";

export { countDdbCalls, purposeOf } from "../../shared/src/ingest/calls.testkit.ts";

/**
 * One bare ingest transaction, the ratio's fixed reference: the four writes a stored message needs — the WhatsApp alias
 * put (if absent), the message put (`messageRecord`: the item as stored), the message id's reference put and the
 * ticket's update (preview, `updatedAt`, unread count and the list indexes' sort keys, which move with every message).
 * The ingest now keeps the alias and the reference in one item (`keys.messageAlias`); the reference stays these four
 * items as the ingest wrote them before, so that merge shows in the ratio. Left out: what the ingest adds (the search
 * index items, the ticket's message and day counts, its `rev`) and all its logic.
 */
export async function bareIngestTransaction(companyId: number, ticketId: number, whatsappId: number, i: number, tag: string): Promise<void> {
  const now = new Date().toISOString();
  const id = `BARE${tag}${i}`;
  const jid = `55119${String(i % 200).padStart(8, "0")}@s.whatsapp.net`;
  const m = MessageItem.parse({ id, ticketId, companyId, contactId: ticketId, whatsappId, remoteJid: jid, body: `Olá, mensagem ${i}`, fromMe: false, waTimestamp: now, createdAt: now, updatedAt: now });
  const msgKey = keys.message(companyId, ticketId, m.waTimestamp, id);
  const sk = `${now}#${pad(ticketId)}`;
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.waMessage(companyId, whatsappId, jid, id), _type: "waMessage", ticketId, messageSK: msgKey.SK, messageId: id, fromMe: false },
            ConditionExpression: "attribute_not_exists(PK)",
          },
        },
        { Put: { TableName: tableName(), Item: messageRecord(m) } },
        { Put: { TableName: tableName(), Item: { ...keys.messageRef(companyId, id, ticketId), _type: "messageRef", ticketId, messageSK: msgKey.SK, createdAt: now } } },
        {
          Update: {
            TableName: tableName(),
            Key: keys.ticket(companyId, ticketId),
            UpdateExpression: "SET lastMessage = :lm, updatedAt = :now, GSI1SK = :sk, GSI2SK = :sk, GSI3SK = :sk ADD unreadMessages :one",
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeValues: { ":lm": m.body, ":now": now, ":sk": sk, ":one": 1 },
          },
        },
      ],
    }),
  );
}

/**
 * Alternates `rounds` × (bare transactions, full ingest) of `perRound` each at `concurrency` in flight; the ratio is
 * the median ingest rate over the median bare rate. `bareTicketIds` are existing tickets the bare transactions update
 * (one per customer, like the ingest's); `ingestOne(i)` ingests message `i`.
 */
export async function measureRatio(opts: {
  rounds: number;
  perRound: number;
  concurrency: number;
  bare: (i: number) => Promise<void>;
  ingest: (i: number) => Promise<void>;
  /** CPU time used so far (ms) by this process and by DynamoDB Local (`http-load.ts` `cpuMs`), and by its JIT compilers (`jitCpuMs`). */
  cpu: () => { node: number; ddb: number; jit: number };
}) {
  const bare: number[] = [];
  const ingest: number[] = [];
  /** CPU ms per operation, this process / DynamoDB Local (of which its JIT compilers), summed over the rounds. */
  const spent = { bare: { node: 0, ddb: 0, jit: 0 }, ingest: { node: 0, ddb: 0, jit: 0 } };
  const timed = async (into: { node: number; ddb: number; jit: number }, run: () => Promise<{ rps: number }>) => {
    const a = opts.cpu();
    const r = await run();
    const b = opts.cpu();
    into.node += b.node - a.node;
    into.ddb += b.ddb - a.ddb;
    into.jit += b.jit - a.jit;
    return r.rps;
  };
  /** The machine's 1-minute load average at each round's start (the figures are only comparable at similar load). */
  const load1: number[] = [];
  let n = 0;
  for (let r = 0; r < opts.rounds; r++) {
    load1.push(Math.round(loadavg()[0] * 10) / 10);
    const b0 = n;
    bare.push(await timed(spent.bare, () => load(opts.perRound, opts.concurrency, (i) => opts.bare(b0 + i))));
    const i0 = n;
    ingest.push(await timed(spent.ingest, () => load(opts.perRound, opts.concurrency, (i) => opts.ingest(i0 + i))));
    n += opts.perRound;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const perOp = (x: { node: number; ddb: number; jit: number }) => {
    const ops = opts.rounds * opts.perRound;
    const r2 = (v: number) => Math.round((v / ops) * 100) / 100;
    return { node: r2(x.node), ddb: r2(x.ddb), ddbJit: r2(x.jit) };
  };
  return {
    bare,
    ingest,
    load1,
    bareMedian: median(bare),
    ingestMedian: median(ingest),
    ratio: Math.round((median(ingest) / median(bare)) * 100) / 100,
    cpuMsPerOp: { bare: perOp(spent.bare), ingest: perOp(spent.ingest) },
  };
}
