/**
 * Login throttling (issue 2 §3): failed logins are counted per email and per IP in TTL'd buckets
 * (`THROTTLE#email#<email>` / `THROTTLE#ip#<ip>`, attributes `attempts` and `expiresAt` in epoch seconds).
 * A bucket opens at the first failure and lasts `LOGIN_WINDOW_SECONDS`; once it holds `LOGIN_MAX_ATTEMPTS`
 * failures, further logins for that email or from that IP are refused with 429 `ERR_TOO_MANY_ATTEMPTS`
 * (data `retryAfterSeconds`) until it expires. A successful login clears the email bucket.
 * `expiresAt` is always compared with the clock: TTL deletion is only cleanup.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { getConfig } from "../config.ts";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";

type Bucket = { kind: "email" | "ip"; value: string };

const nowSeconds = () => Math.floor(Date.now() / 1000);
const bucketsOf = (email: string, ip: string): Bucket[] => [
  { kind: "email", value: email.trim().toLowerCase() },
  { kind: "ip", value: ip },
];

/** Throws 429 `ERR_TOO_MANY_ATTEMPTS` `{retryAfterSeconds}` when the email's or the IP's bucket is full. */
export async function assertLoginAllowed(email: string, ip: string): Promise<void> {
  const { LOGIN_MAX_ATTEMPTS } = getConfig();
  const now = nowSeconds();
  const items = await Promise.all(
    bucketsOf(email, ip).map((b) => ddb().send(new GetCommand({ TableName: tableName(), Key: keys.throttle(b.kind, b.value), ConsistentRead: true }))),
  );
  let retryAfter = 0;
  for (const { Item } of items) {
    if (!Item) continue;
    const expiresAt = Number(Item.expiresAt);
    if (expiresAt > now && Number(Item.attempts) >= LOGIN_MAX_ATTEMPTS) retryAfter = Math.max(retryAfter, expiresAt - now);
  }
  if (retryAfter > 0) {
    log("warn", "auth: login throttled", { ip, retryAfterSeconds: retryAfter });
    throw new AppError("ERR_TOO_MANY_ATTEMPTS", 429, { retryAfterSeconds: retryAfter });
  }
}

async function countFailure(b: Bucket): Promise<void> {
  const now = nowSeconds();
  const exp = now + getConfig().LOGIN_WINDOW_SECONDS;
  const Key = keys.throttle(b.kind, b.value);
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: "ADD attempts :one SET expiresAt = if_not_exists(expiresAt, :exp), #t = :t",
        ConditionExpression: "attribute_not_exists(PK) OR expiresAt > :now",
        ExpressionAttributeNames: { "#t": "_type" },
        ExpressionAttributeValues: { ":one": 1, ":exp": exp, ":now": now, ":t": "throttle" },
      }),
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    // The previous window is over: start a new one (a concurrent restart wins harmlessly).
    await ddb()
      .send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...Key, _type: "throttle", attempts: 1, expiresAt: exp },
          ConditionExpression: "attribute_not_exists(PK) OR expiresAt <= :now",
          ExpressionAttributeValues: { ":now": now },
        }),
      )
      .catch((e) => {
        if (!isConditionFailed(e)) throw e;
      });
  }
}

/** Counts one failed login against the email's and the IP's buckets. */
export async function recordLoginFailure(email: string, ip: string): Promise<void> {
  await Promise.all(bucketsOf(email, ip).map(countFailure));
}

/** Clears the email's bucket after a successful login (the IP bucket keeps counting other emails' failures). */
export async function clearLoginFailures(email: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.throttle("email", email.trim().toLowerCase()) }));
}
