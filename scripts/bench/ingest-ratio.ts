/**
 * Issue 8 "Proof, overall": the ingest rate as a ratio to DynamoDB Local's own rate for the ingest's bare 4-item
 * transaction (alias put if absent + message put + message ref put + ticket update), both measured alternately in one
 * run at the same concurrency, and what each ingested message costs in DynamoDB calls (by command and by what it
 * reads or writes) and in `@connections` posts. Target: ratio ≥ 0.8.
 */
import { loadavg } from "node:os";
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { load } from "./stats.ts";

export { countDdbCalls, purposeOf } from "../../shared/src/ingest/calls.testkit.ts";

/**
 * One bare ingest transaction, shaped like `ingestMessage`'s first four items: the alias put (if absent), the message
 * put, the message ref put and the ticket's update (the ticket item must exist).
 */
export async function bareIngestTransaction(companyId: number, ticketId: number, whatsappId: number, i: number, tag: string): Promise<void> {
  const now = new Date().toISOString();
  const id = `BARE${tag}${i}`;
  const jid = `55119${String(i % 200).padStart(8, "0")}@s.whatsapp.net`;
  const msgKey = keys.message(companyId, ticketId, now, id);
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
        { Put: { TableName: tableName(), Item: { ...msgKey, _type: "message", id, ticketId, companyId, body: `mensagem ${i}`, fromMe: false, createdAt: now, updatedAt: now } } },
        { Put: { TableName: tableName(), Item: { ...keys.messageRef(companyId, id, ticketId), _type: "messageRef", ticketId, messageSK: msgKey.SK, createdAt: now } } },
        {
          Update: {
            TableName: tableName(),
            Key: keys.ticket(companyId, ticketId),
            UpdateExpression: "SET lastMessage = :lm, updatedAt = :now ADD unreadMessages :one",
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeValues: { ":lm": `mensagem ${i}`, ":now": now, ":one": 1 },
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
}) {
  const bare: number[] = [];
  const ingest: number[] = [];
  /** The machine's 1-minute load average at each round's start (the figures are only comparable at similar load). */
  const load1: number[] = [];
  let n = 0;
  for (let r = 0; r < opts.rounds; r++) {
    load1.push(Math.round(loadavg()[0] * 10) / 10);
    const b0 = n;
    bare.push((await load(opts.perRound, opts.concurrency, (i) => opts.bare(b0 + i))).rps);
    const i0 = n;
    ingest.push((await load(opts.perRound, opts.concurrency, (i) => opts.ingest(i0 + i))).rps);
    n += opts.perRound;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { bare, ingest, load1, bareMedian: median(bare), ingestMedian: median(ingest), ratio: Math.round((median(ingest) / median(bare)) * 100) / 100 };
}
