/**
 * DynamoDB access for users (docs/architecture.md#3-the-table): `C#<cid>` / `USER#<id>` items plus the global `EMAIL#<email>` marker
 * (email unique across the product), always written in the same transaction as the user.
 * Items are parsed with {@link UserItem} on read; `passwordHash` never leaves this layer except through
 * {@link getUser} for the auth and user services.
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName, transactWrite, type TxItem } from "../db/client.ts";
import { countQuery, queryAllByPrefix } from "../db/query.ts";
import { failedConditionAt, isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { setFields } from "../db/update.ts";
import { AppError } from "../errors.ts";
import { UserItem } from "./schema.ts";
import { parseStored } from "../db/items.ts";

/** Reads one user of the company, or `undefined` (strongly consistent unless `consistent` is false: a token check). */
export async function getUser(companyId: number, userId: number, { consistent = true } = {}): Promise<UserItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId), ConsistentRead: consistent }));
  return out.Item ? parseStored(UserItem, out.Item) : undefined;
}

/** A connection's `{id, name}` as a user shows it (the `whatsapp` field of a public user), or `undefined` when it is gone. */
export async function getWhatsappRef(companyId: number, whatsappId: number): Promise<{ id: number; name: string } | undefined> {
  const out = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: keys.whatsapp(companyId, whatsappId), ProjectionExpression: "id, #n", ExpressionAttributeNames: { "#n": "name" } }),
  );
  if (!out.Item) return undefined;
  return { id: typeof out.Item.id === "number" ? out.Item.id : whatsappId, name: String(out.Item.name ?? "") };
}

/** The global email marker: which company and user own this email (case-insensitive), or `undefined`. */
export async function getEmailOwner(email: string): Promise<{ companyId: number; userId: number } | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }));
  if (!out.Item) return undefined;
  return { companyId: Number(out.Item.companyId), userId: Number(out.Item.userId) };
}

/** Every user of the company, ordered by id (a bounded entity in the company partition). */
export async function listUsers(companyId: number): Promise<UserItem[]> {
  return (await queryAllByPrefix(keys.companyPartition(companyId), keys.prefix.user)).map((it) => parseStored(UserItem, it));
}

/** How many users the company has (a strongly consistent COUNT of its `USER#` items: the plan's first count). */
export function countUsers(companyId: number): Promise<number> {
  return countQuery({
    KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
    ExpressionAttributeValues: { ":pk": keys.companyPartition(companyId), ":sk": keys.prefix.user },
    ConsistentRead: true,
  });
}

/** The transact-write items that create a user and its email marker (used alone and inside company creation). */
export function userCreateItems(u: UserItem) {
  return [
    { Put: { TableName: tableName(), Item: { ...keys.user(u.companyId, u.id), _type: "user", ...u }, ConditionExpression: "attribute_not_exists(PK)" } },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.email(u.email), _type: "email", companyId: u.companyId, userId: u.id },
        ConditionExpression: "attribute_not_exists(PK)",
      },
    },
  ];
}

/**
 * Creates the user and its email marker in one transaction, with `extra` last (the plan's count, `plans/limits.ts`).
 * Duplicate email → 409 `ERR_EMAIL_ALREADY_EXISTS`.
 */
export async function putNewUser(u: UserItem, extra: TxItem[] = []): Promise<void> {
  try {
    await transactWrite([...userCreateItems(u), ...extra]);
  } catch (err) {
    if (failedConditionAt(err, 1)) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
    throw err;
  }
}

/** Fields an update may change through {@link updateUserFields}. */
export type UserChanges = Partial<Pick<UserItem, "name" | "email" | "passwordHash" | "profile" | "allTicket" | "whatsappId" | "queueIds">>;

/**
 * Sets the given fields (and `updatedAt` = `now`, ISO) on an existing user. When the email changes (ignoring case), the
 * old marker is deleted and the new one put in the same transaction (taken → 409 `ERR_EMAIL_ALREADY_EXISTS`).
 * A user deleted meanwhile → 404 `ERR_NO_USER_FOUND`. Other attributes (online, token version) are untouched.
 * `extra`: more items of the same transaction, last (the pending runs of its `user.updated`, `events/durable.ts`).
 */
export async function updateUserFields(before: UserItem, changes: UserChanges, now = new Date().toISOString(), extra: TxItem[] = []): Promise<void> {
  const items: TxItem[] = [
    { Update: { TableName: tableName(), Key: keys.user(before.companyId, before.id), ...setFields(changes, now), ConditionExpression: "attribute_exists(PK)" } },
  ];
  const emailChanged = changes.email !== undefined && before.email.trim().toLowerCase() !== changes.email.trim().toLowerCase();
  if (emailChanged) {
    items.push(
      { Delete: { TableName: tableName(), Key: keys.email(before.email) } },
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.email(changes.email!), _type: "email", companyId: before.companyId, userId: before.id },
          ConditionExpression: "attribute_not_exists(PK)",
        },
      },
    );
  }
  items.push(...extra);
  try {
    await transactWrite(items);
  } catch (err) {
    if (emailChanged && failedConditionAt(err, 2)) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
    if (failedConditionAt(err, 0)) throw new AppError("ERR_NO_USER_FOUND");
    throw err;
  }
}

/**
 * Deletes the user and its email marker in one transaction, with `extra` last (the plan's count, `plans/limits.ts`);
 * missing user → 404 `ERR_NO_USER_FOUND`.
 */
export async function deleteUserItems(u: UserItem, extra: TxItem[] = []): Promise<void> {
  try {
    await transactWrite([
          { Delete: { TableName: tableName(), Key: keys.user(u.companyId, u.id), ConditionExpression: "attribute_exists(PK)" } },
          { Delete: { TableName: tableName(), Key: keys.email(u.email) } },
          ...extra,
        ]);
  } catch (err) {
    if (failedConditionAt(err, 0)) throw new AppError("ERR_NO_USER_FOUND");
    throw err;
  }
}

/**
 * Updates some attributes of an existing user (`updatedAt` is set too); returns the new item.
 * `expectTokenVersion` / `expectRefreshJti` make the write conditional (lost race → `undefined`); `onlyIfOnlineChanges`
 * writes only when the stored `online` differs from `set.online` (same value → nothing written, `undefined`).
 */
export async function patchUser(
  companyId: number,
  userId: number,
  set: Partial<Pick<UserItem, "online" | "refreshJti" | "prevRefreshJti" | "prevRefreshUntil" | "tokenVersion" | "queueIds" | "whatsappId">>,
  cond: { expectTokenVersion?: number; expectRefreshJti?: string | null; onlyIfOnlineChanges?: boolean } = {},
): Promise<UserItem | undefined> {
  const update = setFields(set);
  const names = update.ExpressionAttributeNames;
  const values = update.ExpressionAttributeValues;
  const conds = ["attribute_exists(PK)"];
  if (cond.onlyIfOnlineChanges && set.online !== undefined) {
    names["#onc"] = "online";
    values[":onc"] = set.online;
    conds.push("(attribute_not_exists(#onc) OR #onc <> :onc)");
  }
  if (cond.expectTokenVersion !== undefined) {
    names["#tvc"] = "tokenVersion";
    values[":tvc"] = cond.expectTokenVersion;
    conds.push("#tvc = :tvc");
  }
  if (cond.expectRefreshJti !== undefined) {
    names["#jtic"] = "refreshJti";
    if (cond.expectRefreshJti === null) conds.push("attribute_not_exists(#jtic)");
    else {
      values[":jtic"] = cond.expectRefreshJti;
      conds.push("#jtic = :jtic");
    }
  }
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(companyId, userId),
        ...update,
        ConditionExpression: conds.join(" AND "),
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseStored(UserItem, out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}

/**
 * Atomically increments the user's `tokenVersion` (revoking every access and refresh token issued before) and,
 * when `refreshJti` is given, stores it as the one valid refresh token id. Returns the new item, or `undefined`
 * when the user no longer exists.
 */
export async function bumpTokenVersion(companyId: number, userId: number, refreshJti?: string): Promise<UserItem | undefined> {
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(companyId, userId),
        UpdateExpression: refreshJti
          ? "SET #updatedAt = :now, #jti = :jti ADD #tv :one"
          : "SET #updatedAt = :now ADD #tv :one REMOVE #jti",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: { "#updatedAt": "updatedAt", "#tv": "tokenVersion", "#jti": "refreshJti" },
        ExpressionAttributeValues: { ":now": new Date().toISOString(), ":one": 1, ...(refreshJti ? { ":jti": refreshJti } : {}) },
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseStored(UserItem, out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}
