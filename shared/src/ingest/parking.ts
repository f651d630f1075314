/**
 * Delivery safety of inbound messages. Baileys has acknowledged a message to WhatsApp before we see it,
 * so an ingest that fails must never drop it:
 *
 * - {@link withRetries}: one message's ingest is retried in-process with exponential backoff and jitter (bounded).
 * - {@link parkInbound}: what still fails is parked as a table item (`C#<cid>#INPARK#<wid>` / `M#<waId>`, the raw
 *   WAMessage kept) with a due-time GSI4 key per session shard (`INPARK#SHARD#<n>` / `<dueAt>#…`); the runner that
 *   owns the shard re-drives it later (`redriveParked` in `./index.ts`). When even the park write fails the message
 *   is held in this process and parked on the next re-drive pass.
 * - {@link keepRaw}: a payload that can never be stored (unreadable) is kept raw under GSI4 `INDEAD` for inspection.
 *
 * Re-driving is harmless: the ingest transaction's WhatsApp-id alias makes a second store a no-op.
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { log } from "../log.ts";
import { shardOf } from "../whatsapp/commands.ts";

/**
 * Tunables of the in-process retries and the re-drive schedule. `sleep` is the clock the retries wait on (tests pass
 * a controlled one). `attempts`: tries per message before parking; `baseMs`/`capMs`: backoff; `parkedMaxAttempts`:
 * re-drives before a parked message is given up as dead (kept raw); `redriveBaseMs`/`redriveCapMs`: re-drive backoff.
 */
export const retryOptions = {
  attempts: 4,
  baseMs: 200,
  capMs: 5_000,
  parkedMaxAttempts: 40,
  redriveBaseMs: 30_000,
  redriveCapMs: 15 * 60_000,
  sleep: (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms)),
};

const DEAD_TTL_SECONDS = 30 * 24 * 3600;

/** Backoff before attempt `n` (1-based, n ≥ 1): base·2^(n-1), jittered ±50 %, capped. Milliseconds. */
export function backoffMs(n: number, baseMs: number, capMs: number): number {
  const raw = Math.min(capMs, baseMs * 2 ** Math.max(0, n - 1));
  return Math.round(raw / 2 + (Math.random() * raw) / 2);
}

/**
 * Runs `fn` up to `retryOptions.attempts` times, waiting {@link backoffMs} between tries; rethrows the last error.
 * `retryable(err)` false rethrows at once (a refusal of the payload is not retried).
 */
export async function withRetries<T>(fn: () => Promise<T>, retryable: (err: unknown) => boolean = () => true): Promise<T> {
  const { attempts, baseMs, capMs } = retryOptions;
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts || !retryable(err)) throw err;
      await retryOptions.sleep(backoffMs(i, baseMs, capMs));
    }
  }
}

/** JSON with bytes (Buffer / Uint8Array) as `{"$b64": …}`, so a raw WAMessage survives the table round trip. */
export function rawToJson(raw: unknown): string {
  return JSON.stringify(raw, function (this: Record<string, unknown>, k, v) {
    const orig = this[k];
    if (orig instanceof Uint8Array) return { $b64: Buffer.from(orig).toString("base64") };
    return v;
  });
}

/** Inverse of {@link rawToJson}: bytes come back as Buffers. */
export function rawFromJson(json: string): unknown {
  return JSON.parse(json, (_k, v) => (v && typeof v === "object" && typeof v.$b64 === "string" && Object.keys(v).length === 1 ? Buffer.from(v.$b64, "base64") : v));
}

/** A parked inbound message as stored. */
export interface ParkedInbound {
  companyId: number;
  whatsappId: number;
  waId: string;
  /** `messages.upsert` type it arrived with. */
  type: "notify" | "append";
  /** {@link rawToJson} of the WAMessage. */
  raw: string;
  attempts: number;
  dueAt: string;
  parkedAt: string;
  lastError: string;
  /** The delivery's processing token (`store.ts` `Incoming.token`), so a re-drive finishes a lost-answer store. */
  token?: string;
}

const errText = (err: unknown) => {
  const e = err as { name?: string; code?: string; message?: string };
  return `${e?.name ?? "Error"}${e?.code ? ` ${e.code}` : ""}: ${String(e?.message ?? err).slice(0, 200)}`;
};

/** Messages whose park write failed too, parked again on the next {@link flushHeld} (this process only). */
const held: ParkedInbound[] = [];

/** How many parked messages this process still holds in memory (its park write failed). */
export function heldCount(): number {
  return held.length;
}

function parkedItem(p: ParkedInbound) {
  return {
    ...keys.inboundParked(p.companyId, p.whatsappId, p.waId),
    ...keys.inboundParkedDue(shardOf(p.whatsappId), p.dueAt, p.companyId, p.whatsappId, p.waId),
    _type: "inboundParked",
    ...p,
  };
}

async function putParked(p: ParkedInbound): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: parkedItem(p) }));
}

/**
 * Parks one inbound message (`raw` WAMessage of connection `whatsappId`, with its processing `token`) for a re-drive
 * after `retryOptions.redriveBaseMs`.
 * Never throws: when the table refuses the write (after retries) the message is held in memory and logged.
 */
export async function parkInbound(
  ctx: { companyId: number; whatsappId: number },
  raw: unknown,
  waId: string,
  type: "notify" | "append",
  err: unknown,
  now = Date.now(),
  token?: string,
): Promise<void> {
  const p: ParkedInbound = {
    ...(token ? { token } : {}),
    companyId: ctx.companyId,
    whatsappId: ctx.whatsappId,
    waId,
    type,
    raw: rawToJson(raw),
    attempts: 0,
    dueAt: new Date(now + retryOptions.redriveBaseMs).toISOString(),
    parkedAt: new Date(now).toISOString(),
    lastError: errText(err),
  };
  try {
    await withRetries(() => putParked(p));
    log("warn", "inbound message parked", { companyId: ctx.companyId, whatsappId: ctx.whatsappId, messageId: waId, err: p.lastError });
  } catch (parkErr) {
    held.push(p);
    log("error", "inbound message held in memory", { companyId: ctx.companyId, whatsappId: ctx.whatsappId, messageId: waId, err: parkErr });
  }
}

/** Parks the messages this process holds in memory; those that fail again stay held. Returns how many were parked. */
export async function flushHeld(): Promise<number> {
  let parked = 0;
  for (const p of held.splice(0)) {
    try {
      await putParked(p);
      parked++;
    } catch {
      held.push(p);
    }
  }
  return parked;
}

/**
 * Keeps a payload that can never be stored (unreadable, malformed) raw for inspection: GSI4 `INDEAD`, 30-day TTL.
 * Best effort (a failure is logged); `ref` names it (the message id when known).
 */
export async function keepRaw(ctx: { companyId: number; whatsappId: number }, raw: unknown, reason: string, ref: string, now = Date.now()): Promise<void> {
  const at = new Date(now).toISOString();
  const id = `${ref}#${now.toString(36)}${Math.random().toString(36).slice(2, 6)}`.slice(0, 200);
  let json = rawToJson(raw);
  if (json.length > 300_000) json = json.slice(0, 300_000);
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.inboundDeadItem(ctx.companyId, ctx.whatsappId, id),
          ...keys.inboundDead(at, ctx.companyId, ctx.whatsappId, id),
          _type: "inboundDead",
          companyId: ctx.companyId,
          whatsappId: ctx.whatsappId,
          reason,
          raw: json,
          at,
          expiresAt: Math.floor(now / 1000) + DEAD_TTL_SECONDS,
        },
      }),
    );
    log("warn", "inbound payload kept raw", { companyId: ctx.companyId, whatsappId: ctx.whatsappId, reason });
  } catch (err) {
    log("error", "inbound payload could not be kept", { companyId: ctx.companyId, whatsappId: ctx.whatsappId, reason, err });
  }
}

/** Parked messages of `shard` due at `now` or before, oldest due first (at most `limit`). */
export async function dueParked(shard: number, now: number, limit = 100): Promise<ParkedInbound[]> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: "GSI4",
      KeyConditionExpression: "GSI4PK = :pk AND GSI4SK <= :until",
      ExpressionAttributeValues: { ":pk": keys.inboundParkedDuePK(shard), ":until": `${new Date(now).toISOString()}~` },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({
    companyId: Number(i.companyId),
    whatsappId: Number(i.whatsappId),
    waId: String(i.waId),
    type: i.type === "append" ? "append" : "notify",
    raw: String(i.raw),
    attempts: Number(i.attempts ?? 0),
    dueAt: String(i.dueAt),
    parkedAt: String(i.parkedAt),
    lastError: String(i.lastError ?? ""),
    ...(typeof i.token === "string" ? { token: i.token } : {}),
  }));
}

/** Removes a parked message once it is stored (or found to be a duplicate). */
export async function unpark(p: ParkedInbound): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.inboundParked(p.companyId, p.whatsappId, p.waId) }));
}

/**
 * Records a failed re-drive: `attempts + 1` and a later due time; after `parkedMaxAttempts` the message is given up
 * (kept raw as dead, removed from the due index). Returns `"dead"` or `"rescheduled"`.
 */
export async function reschedule(p: ParkedInbound, err: unknown, now = Date.now()): Promise<"dead" | "rescheduled"> {
  const attempts = p.attempts + 1;
  if (attempts >= retryOptions.parkedMaxAttempts) {
    await keepRaw(p, rawFromJson(p.raw), `gave up after ${attempts} re-drives: ${errText(err)}`, p.waId, now);
    await unpark(p);
    return "dead";
  }
  const dueAt = new Date(now + backoffMs(attempts + 1, retryOptions.redriveBaseMs, retryOptions.redriveCapMs)).toISOString();
  const due = keys.inboundParkedDue(shardOf(p.whatsappId), dueAt, p.companyId, p.whatsappId, p.waId);
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.inboundParked(p.companyId, p.whatsappId, p.waId),
      UpdateExpression: "SET attempts = :a, dueAt = :d, GSI4SK = :sk, lastError = :e",
      ConditionExpression: "attribute_exists(PK)",
      ExpressionAttributeValues: { ":a": attempts, ":d": dueAt, ":sk": due.GSI4SK, ":e": errText(err) },
    }),
  );
  return "rescheduled";
}
