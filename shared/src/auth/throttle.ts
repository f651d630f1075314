/**
 * Login throttling. Attempts are counted in TTL'd buckets (`keys.throttle`,
 * attributes `attempts` and `expiresAt` in epoch seconds, a window of `LOGIN_WINDOW_SECONDS` from the first attempt):
 *
 * - counted BEFORE the password is checked (an atomic `ADD` whose new value decides), so a parallel burst cannot slip
 *   past the limit: with a limit of N, at most N attempts of a burst reach the password check;
 * - `pair` (per email AND IP): beyond `LOGIN_MAX_ATTEMPTS` (default 10) the attempt is refused with 429
 *   `ERR_TOO_MANY_ATTEMPTS` `{retryAfterSeconds}`: brute force on one account stops, and one person's typos lock out
 *   only that account from that address, never a colleague behind the same NAT;
 * - `ip` (per client IP, any email): beyond `LOGIN_MAX_ATTEMPTS_PER_IP` (default 100) the same 429 — a spray over many
 *   accounts from one address; high enough for an office of people mistyping behind one NAT;
 * - `email` (per email, any IP): never refuses (nobody can lock the super admin out); beyond the limit each attempt is
 *   answered after a progressive delay (250 ms doubling, at most {@link MAX_LOGIN_DELAY_MS}), the right password still works.
 *
 * A successful login clears the `pair` and `email` buckets and gives back its `ip` count (an office behind one NAT
 * address is not throttled for logging in). `expiresAt` is always compared with the clock: TTL deletion is only
 * cleanup. The client IP must be one a caller cannot forge (see `clientIp` in functions/src/http/auth.ts).
 */
import { DeleteCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { getConfig } from "../config.ts";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";

/** Longest delay added to an attempt on an email with too many recent failures (ms). */
export const MAX_LOGIN_DELAY_MS = 4000;

type Kind = "email" | "ip" | "pair";
const nowSeconds = () => Math.floor(Date.now() / 1000);
const norm = (email: string) => email.trim().toLowerCase();
const bucketKey = (kind: Kind, email: string, ip: string) =>
  keys.throttle(kind, kind === "email" ? norm(email) : kind === "ip" ? ip : `${norm(email)}|${ip}`);

/** Adds one attempt to a bucket (opening a new window when the last one is over); returns the count and window end. */
async function bump(Key: { PK: string; SK: string }, delta = 1): Promise<{ attempts: number; expiresAt: number }> {
  for (let i = 0; i < 3; i++) {
    const now = nowSeconds();
    const exp = now + getConfig().LOGIN_WINDOW_SECONDS;
    try {
      const out = await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key,
          UpdateExpression: "ADD attempts :d SET expiresAt = if_not_exists(expiresAt, :exp), #t = :t",
          ConditionExpression: "attribute_not_exists(PK) OR expiresAt > :now",
          ExpressionAttributeNames: { "#t": "_type" },
          ExpressionAttributeValues: { ":d": delta, ":exp": exp, ":now": now, ":t": "throttle" },
          ReturnValues: "ALL_NEW",
        }),
      );
      return { attempts: Number(out.Attributes?.attempts ?? delta), expiresAt: Number(out.Attributes?.expiresAt ?? exp) };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
    if (delta < 0) return { attempts: 0, expiresAt: 0 }; // nothing to give back in a window that is over
    try {
      // The previous window is over: start a new one (a concurrent restart wins, and we add to it on the next turn).
      await ddb().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...Key, _type: "throttle", attempts: 1, expiresAt: exp },
          ConditionExpression: "attribute_not_exists(PK) OR expiresAt <= :now",
          ExpressionAttributeValues: { ":now": now },
        }),
      );
      return { attempts: 1, expiresAt: exp };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }
  throw new Error("login throttle: bucket kept changing");
}

/**
 * Counts this login attempt (before any password check) and decides: throws 429 `ERR_TOO_MANY_ATTEMPTS`
 * `{retryAfterSeconds}` when this email from this IP is over `LOGIN_MAX_ATTEMPTS`, or this IP (any email) over
 * `LOGIN_MAX_ATTEMPTS_PER_IP`, in the window; else resolves after the email's progressive delay (0 until the email is
 * over `LOGIN_MAX_ATTEMPTS`).
 */
export async function countLoginAttempt(email: string, ip: string): Promise<void> {
  const { LOGIN_MAX_ATTEMPTS: max, LOGIN_MAX_ATTEMPTS_PER_IP: maxPerIp } = getConfig();
  const [byIp, byPair, byEmail] = await Promise.all((["ip", "pair", "email"] as const).map((k) => bump(bucketKey(k, email, ip))));
  const now = nowSeconds();
  const over = [...(byIp.attempts > maxPerIp ? [byIp] : []), ...(byPair.attempts > max ? [byPair] : [])];
  if (over.length) {
    const retryAfterSeconds = Math.max(1, ...over.map((b) => b.expiresAt - now));
    log("warn", "auth: login throttled", { ip, retryAfterSeconds });
    throw new AppError("ERR_TOO_MANY_ATTEMPTS", { retryAfterSeconds });
  }
  if (byEmail.attempts > max) {
    const delay = Math.min(MAX_LOGIN_DELAY_MS, 250 * 2 ** Math.min(16, byEmail.attempts - max - 1));
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** After a successful login: clears the email's and the email+IP buckets and gives the IP its attempt back. */
export async function clearLoginFailures(email: string, ip: string): Promise<void> {
  await Promise.all([
    ddb().send(new DeleteCommand({ TableName: tableName(), Key: bucketKey("email", email, ip) })),
    ddb().send(new DeleteCommand({ TableName: tableName(), Key: bucketKey("pair", email, ip) })),
    bump(bucketKey("ip", email, ip), -1),
  ]);
}

/**
 * Counts one submission of a public form (sign-up, password-reset request or code) in the bucket
 * `keys.rateLimit(scope, value)`, a window of `windowSeconds` from its first submission; beyond `max` in the window,
 * 429 `ERR_TOO_MANY_ATTEMPTS` `{retryAfterSeconds}`. Counted before any other check, so the answer is the same whether
 * or not the email exists.
 */
export async function countFormAttempt(scope: string, value: string, max: number, windowSeconds: number): Promise<void> {
  const Key = keys.rateLimit(scope, value);
  const now = nowSeconds();
  const exp = now + windowSeconds;
  let b: { attempts: number; expiresAt: number } | undefined;
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: "ADD attempts :one SET expiresAt = if_not_exists(expiresAt, :exp), #t = :t",
        ConditionExpression: "attribute_not_exists(PK) OR expiresAt > :now",
        ExpressionAttributeNames: { "#t": "_type" },
        ExpressionAttributeValues: { ":one": 1, ":exp": exp, ":now": now, ":t": "rateLimit" },
        ReturnValues: "ALL_NEW",
      }),
    );
    b = { attempts: Number(out.Attributes?.attempts ?? 1), expiresAt: Number(out.Attributes?.expiresAt ?? exp) };
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    // The window is over: a new one starts with this submission (a concurrent restart writes the same).
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...Key, _type: "rateLimit", attempts: 1, expiresAt: exp } }));
    b = { attempts: 1, expiresAt: exp };
  }
  if (b.attempts > max) {
    log("warn", "form throttled", { scope });
    throw new AppError("ERR_TOO_MANY_ATTEMPTS", { retryAfterSeconds: Math.max(1, b.expiresAt - now) });
  }
}
