// biome-ignore-all lint/suspicious/noExplicitAny: the counter inspects raw SDK command inputs of every shape
/**
 * Counting DynamoDB calls (tests and the bench only): a middleware on the shared client
 * that counts every call by command and by what it reads or writes, so a test can pin what one ingested message costs
 * and the bench can print it.
 */
import { ddb } from "../db/client.ts";

/** What a key string is about, for the per-message cost table. */
export function purposeOf(pk: string, sk = ""): string {
  if (/#WAMSG#/.test(pk) || (/#MSG#/.test(pk) && sk.startsWith("WA#"))) return "WhatsApp alias (dedupe)";
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
  if (/^C#\d+$/.test(pk) && /^CAMP(AIGN|PACE|SET)#/.test(sk)) return `campaign ${sk.replace(/#.*/, "").toLowerCase()}`;
  if (/#CAMP#/.test(pk)) return sk.startsWith("NUM#") ? "campaign member" : "campaign shipping";
  if (/#CAMPMSG#/.test(pk)) return "campaign message ref";
  return `${pk.replace(/\d+/g, "n")}${sk ? ` ${sk.replace(/\d+/g, "n")}` : ""}`;
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

/**
 * The items a write call writes and the bytes it sends for them (JSON of each put item, of each update's values, of
 * each delete's key): what a write costs DynamoDB whatever the machine's load. Reads count zero.
 */
export function writtenBy(command: string, input: Record<string, any>): { items: number; bytes: number } {
  const size = (x: unknown) => (x ? JSON.stringify(x).length : 0);
  let items = 0;
  let bytes = 0;
  const add = (op: Record<string, any> | undefined, kind: "Put" | "Update" | "Delete") => {
    if (!op) return;
    items++;
    bytes += kind === "Put" ? size(op.Item) : kind === "Update" ? size(op.Key) + size(op.ExpressionAttributeValues) : size(op.Key);
  };
  for (const t of input.TransactItems ?? []) {
    add(t.Put, "Put");
    add(t.Update, "Update");
    add(t.Delete, "Delete");
  }
  for (const reqs of Object.values(input.RequestItems ?? {}) as any[]) {
    if (!Array.isArray(reqs)) continue;
    for (const r of reqs) {
      add(r.PutRequest, "Put");
      add(r.DeleteRequest, "Delete");
    }
  }
  if (command === "PutItem") add(input, "Put");
  else if (command === "UpdateItem") add(input, "Update");
  else if (command === "DeleteItem") add(input, "Delete");
  return { items, bytes };
}

/** Counts DynamoDB calls by command and by purpose while installed (a middleware on the shared client). */
export function countDdbCalls() {
  const name = `benchCount${Math.random().toString(36).slice(2)}`;
  const byCommand = new Map<string, number>();
  const byPurpose = new Map<string, number>();
  let total = 0;
  const written = { items: 0, bytes: 0 };
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? "").replace(/Command$/, "");
      total++;
      byCommand.set(command, (byCommand.get(command) ?? 0) + 1);
      const label = `${command}: ${[...new Set(purposesOf(args.input as Record<string, any>))].join(" + ")}`;
      byPurpose.set(label, (byPurpose.get(label) ?? 0) + 1);
      const w = writtenBy(command, args.input as Record<string, any>);
      written.items += w.items;
      written.bytes += w.bytes;
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
    /** Items written and bytes sent for them (`writtenBy`), over every counted call. */
    written,
    remove: () => void ddb().middlewareStack.remove(name),
  };
}

/** Runs `fn` and returns its result with the DynamoDB calls it made, in order: each command's name (e.g. `QueryCommand`) and input. */
export async function callsOf<T>(fn: () => Promise<T>): Promise<{ result: T; calls: { command: string; input: Record<string, any> }[] }> {
  const calls: { command: string; input: Record<string, any> }[] = [];
  const name = `callsOf${Math.random().toString(36).slice(2)}`;
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({ command: String((context as { commandName?: string }).commandName), input: args.input as Record<string, any> });
      return next(args);
    },
    { step: "initialize", name },
  );
  try {
    return { result: await fn(), calls };
  } finally {
    ddb().middlewareStack.remove(name);
  }
}

/** Runs `fn` and returns its result with the DynamoDB commands it sent, in order (e.g. `["QueryCommand"]`). */
export async function commandsOf<T>(fn: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const { result, calls } = await callsOf(fn);
  return { result, commands: calls.map((c) => c.command) };
}
