/**
 * Internal chat in DynamoDB (docs/product/chats.md): the chat item `C#<cid>` / `CHAT#<id>` (members and their unread
 * counts inside it) and one partition of messages per chat `C#<cid>#CHAT#<chatId>` / `CM#<createdAt>#<id>`.
 * A new message adds to every other member's unread count with one atomic UpdateItem (`ADD unreads.#u :1` per member),
 * so concurrent senders never lose a count; edits of the title and members are conditioned on `updatedAt`.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchWriteAll } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { appliedUnlessChanged, isConditionFailed } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { countQuery, queryAll, queryAllByPrefix, queryPages } from "../db/query.ts";
import { ChatItem, ChatMessageItem } from "./schema.ts";

/** One chat of the company (strongly consistent), or `undefined`. */
export async function getChat(companyId: number, id: number): Promise<ChatItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.chat(companyId, id), ConsistentRead: true }));
  return out.Item ? parseStored(ChatItem, out.Item) : undefined;
}

/** Every chat of the company (strongly consistent), in id order. */
export async function listCompanyChats(companyId: number): Promise<ChatItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.chatPrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(ChatItem, it));
}

/** Writes a new chat (its id must be fresh). */
export async function putNewChat(item: ChatItem): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.chat(item.companyId, item.id), _type: "chat", ...item }, ConditionExpression: "attribute_not_exists(PK)" }),
  );
}

/** Replaces a chat's title and members with `after`'s; false when it changed (or vanished) since `before` was read. */
export async function replaceChat(before: ChatItem, after: ChatItem): Promise<boolean> {
  return appliedUnlessChanged(() =>
    ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.chat(after.companyId, after.id), _type: "chat", ...after },
        ConditionExpression: "updatedAt = :prev",
        ExpressionAttributeValues: { ":prev": before.updatedAt },
      }),
    ),
  );
}

/** Deletes a chat as read and every message of it; false when the chat changed or was already gone. */
export async function deleteChatItems(before: ChatItem): Promise<boolean> {
  const deleted = await appliedUnlessChanged(() =>
    ddb().send(
      new DeleteCommand({ TableName: tableName(), Key: keys.chat(before.companyId, before.id), ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } }),
    ),
  );
  if (!deleted) return false;
  const pk = keys.chatMessagesPK(before.companyId, before.id);
  for await (const items of queryPages({ KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": pk }, ProjectionExpression: "PK, SK" })) {
    await batchWriteAll(items.map((it) => ({ DeleteRequest: { Key: { PK: it.PK, SK: it.SK } } })));
  }
  return true;
}

/**
 * Stores a message and moves the chat on in one go: the message item, then one UpdateItem of the chat setting
 * `lastMessage` and `updatedAt` and adding 1 to the unread count of each of `others` (the members but the sender).
 * Returns the chat as it is after the update, or undefined when the chat is gone (the message is removed again).
 */
export async function addChatMessage(m: ChatMessageItem, others: number[]): Promise<ChatItem | undefined> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.chatMessage(m.companyId, m.chatId, m.createdAt, m.id), _type: "chatMessage", ...m } }));
  const names: Record<string, string> = {};
  const adds = others.map((uid, i) => {
    names[`#u${i}`] = String(uid);
    return `unreads.#u${i} :one`;
  });
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.chat(m.companyId, m.chatId),
        UpdateExpression: `SET lastMessage = :msg, updatedAt = :at${adds.length ? ` ADD ${adds.join(", ")}` : ""}`,
        ConditionExpression: "attribute_exists(PK)",
        ...(adds.length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: { ":msg": m.message, ":at": m.createdAt, ...(adds.length ? { ":one": 1 } : {}) },
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseStored(ChatItem, out.Attributes);
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.chatMessage(m.companyId, m.chatId, m.createdAt, m.id) }));
    return undefined;
  }
}

/** Sets one member's unread count to 0; returns the chat after it, or undefined when the chat is gone. */
export async function clearUnreads(companyId: number, chatId: number, userId: number): Promise<ChatItem | undefined> {
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.chat(companyId, chatId),
        UpdateExpression: "SET unreads.#u = :zero",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: { "#u": String(userId) },
        ExpressionAttributeValues: { ":zero": 0 },
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseStored(ChatItem, out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}

/** Page `pageNumber` (from 1) of a chat's messages, newest first, `size` a page, and how many there are. */
export async function pageChatMessages(companyId: number, chatId: number, pageNumber: number, size: number): Promise<{ items: ChatMessageItem[]; count: number }> {
  const query = { KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": keys.chatMessagesPK(companyId, chatId) } };
  const raw = await queryAll({ ...query, ScanIndexForward: false, ConsistentRead: true }, pageNumber * size);
  const count = await countQuery({ ...query, ConsistentRead: true });
  return { items: raw.slice((pageNumber - 1) * size).map((it) => parseStored(ChatMessageItem, it)), count };
}

