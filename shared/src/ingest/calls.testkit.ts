// biome-ignore-all lint/suspicious/noExplicitAny: the counter inspects raw SDK command inputs of every shape
/**
 * Counting DynamoDB calls (tests and the bench only): a middleware on the shared client
 * that counts every call by command and by what it reads or writes, so a test can pin what one ingested message costs
 * and the bench can print it.
 */
import { ddb } from "../db/client.ts";

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
  if (/^OUTBOX#\d/.test(pk)) return "counters outbox";
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

/** How many items a call writes (puts, updates and deletes; a transaction's condition checks are not writes). */
function itemsWrittenBy(command: string, input: Record<string, any>): number {
  if (command === "PutItem" || command === "UpdateItem" || command === "DeleteItem") return 1;
  if (command === "TransactWriteItems") return (input.TransactItems ?? []).filter((t: any) => t.Put || t.Update || t.Delete).length;
  if (command === "BatchWriteItem") return (Object.values(input.RequestItems ?? {}) as any[]).reduce((n, rs) => n + rs.length, 0);
  return 0;
}

/** Counts DynamoDB calls by command and by purpose, and the items they write, while installed (a middleware on the shared client). */
export function countDdbCalls() {
  const name = `benchCount${Math.random().toString(36).slice(2)}`;
  const byCommand = new Map<string, number>();
  const byPurpose = new Map<string, number>();
  let total = 0;
  let written = 0;
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? "").replace(/Command$/, "");
      total++;
      written += itemsWrittenBy(command, args.input as Record<string, any>);
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
    /** Items written (put, updated or deleted) by the counted calls. */
    get itemsWritten() {
      return written;
    },
    byCommand,
    byPurpose,
    remove: () => void ddb().middlewareStack.remove(name),
  };
}

/** Runs `fn` and returns its result with the DynamoDB commands it sent, in order (e.g. `["QueryCommand"]`). */
export async function commandsOf<T>(fn: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const commands: string[] = [];
  const name = `commandsOf${Math.random().toString(36).slice(2)}`;
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(String((context as { commandName?: string }).commandName));
      return next(args);
    },
    { step: "initialize", name },
  );
  try {
    return { result: await fn(), commands };
  } finally {
    ddb().middlewareStack.remove(name);
  }
}

