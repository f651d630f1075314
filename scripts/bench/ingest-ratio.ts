// biome-ignore-all lint/suspicious/noExplicitAny: the bench inspects raw SDK command inputs of every shape
/**
 * Issue 8 "Proof, overall": the ingest rate as a ratio to DynamoDB Local's own rate for the ingest's bare 4-item
 * transaction (alias put if absent + message put + message ref put + ticket update), both measured alternately in one
 * run at the same concurrency, and what each ingested message costs in DynamoDB calls (by command and by what it
 * reads or writes) and in `@connections` posts. Target: ratio ≥ 0.8.
 */
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { load } from "./stats.ts";

/** What a key string is about, for the per-message cost table. */
export function purposeOf(pk: string, sk = ""): string {
  if (/#WAMSG#/.test(pk)) return "WhatsApp alias (dedupe)";
  if (/#ACTIVE#/.test(pk)) return "active-ticket marker";
  if (/#ROOM#/.test(pk) || pk.startsWith("WS#")) return "socket registrations";
  if (sk.startsWith("SET#") || /^C#\d+$/.test(pk) && sk === "" ) return "settings";
  if (/#(CT|JID|PHONE)#/.test(pk) || /#CONTACTS$/.test(pk)) return "contact";
  if (/#TK#/.test(pk)) return "ticket";
  if (/^C#\d+$/.test(pk) && sk.startsWith("WACONN#")) return "connection";
  if (/^C#\d+$/.test(pk) && sk.startsWith("USER#")) return "user";
  if (/^C#\d+$/.test(pk) && sk === "#COMPANY") return "company";
  if (/#OUTBOX#/.test(pk)) return "counters outbox";
  if (/#STATS$/.test(pk)) return "counters";
  if (/#MSG#/.test(pk)) return "message ref";
  if (/#S[GW]#/.test(pk)) return "search index";
  return pk.replace(/\d+/g, "n");
}

function purposesOf(input: Record<string, any>): string[] {
  const out: string[] = [];
  const fromKey = (k: Record<string, unknown> | undefined) => k && out.push(purposeOf(String(k.PK ?? ""), String(k.SK ?? "")));
  fromKey(input.Key);
  fromKey(input.Item);
  const pk = input.ExpressionAttributeValues?.[":pk"];
  if (pk) out.push(purposeOf(String(pk), String(input.ExpressionAttributeValues?.[":sk"] ?? "")));
  for (const t of input.TransactItems ?? []) {
    const op = t.Put ?? t.Update ?? t.Delete ?? t.ConditionCheck;
    fromKey(op?.Key ?? op?.Item);
  }
  for (const items of Object.values(input.RequestItems ?? {}) as any[]) {
    for (const r of items.Keys ?? items ?? []) fromKey(r.PutRequest?.Item ?? r.DeleteRequest?.Key ?? r);
  }
  return out.length ? out : ["(unkeyed)"];
}

/** Counts DynamoDB calls by command and by purpose while installed (a middleware on the shared client). */
export function countDdbCalls() {
  const name = `benchCount${Math.random().toString(36).slice(2)}`;
  const byCommand = new Map<string, number>();
  const byPurpose = new Map<string, number>();
  let total = 0;
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? "").replace(/Command$/, "");
      total++;
      byCommand.set(command, (byCommand.get(command) ?? 0) + 1);
      const label = `${command}: ${[...new Set(purposesOf(args.input as Record<string, any>))].join(" + ")}`;
      byPurpose.set(label, (byPurpose.get(label) ?? 0) + 1);
      return next(args);
    },
    { step: "initialize", name, priority: "low" },
  );
  return {
    get total() {
      return total;
    },
    byCommand,
    byPurpose,
    remove: () => void ddb().middlewareStack.remove(name),
  };
}

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
  let n = 0;
  for (let r = 0; r < opts.rounds; r++) {
    const b0 = n;
    bare.push((await load(opts.perRound, opts.concurrency, (i) => opts.bare(b0 + i))).rps);
    const i0 = n;
    ingest.push((await load(opts.perRound, opts.concurrency, (i) => opts.ingest(i0 + i))).rps);
    n += opts.perRound;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { bare, ingest, bareMedian: median(bare), ingestMedian: median(ingest), ratio: Math.round((median(ingest) / median(bare)) * 100) / 100 };
}
