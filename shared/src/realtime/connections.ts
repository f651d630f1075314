/**
 * WebSocket connection registry (docs/product/realtime.md): the repository behind `functions/src/ws`.
 *
 * Two items per socket, both with `expiresAt` (epoch seconds; TTL is cleanup, readers filter on it):
 * - `WS#<connectionId>` / `#`: {connectionId, companyId, userId, connectedAt (ISO), expiresAt} — looked up by id on
 *   `$default` / `$disconnect`, whose events carry only the connection id.
 * - `C#<cid>#ROOM#company` / `WS#<connectionId>`: the {@link SocketMember} `publish.ts` reads to fan events out, also
 *   indexed in the platform channel (GSI2 `SOCKETS#<shard>`) for platform-wide frames.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { ddb, tableName } from "../db/client.ts";
import { scanPages } from "../db/query.ts";
import { isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { companySockets, disconnectSocket, forgetSocketListing, removeSocket, type SocketMember } from "./publish.ts";
import { schedulePresenceCheck } from "./presence.ts";
import { parseStored } from "../db/items.ts";

/** API Gateway closes a WebSocket after 2 h; registrations live 15 min longer so a late `$disconnect` still finds them. */
export const SOCKET_TTL_SECONDS = 2 * 3600 + 15 * 60;

const ConnectionItem = z.object({
  connectionId: z.string(),
  companyId: z.number().int(),
  userId: z.number().int(),
  connectedAt: z.string(),
  expiresAt: z.number(),
  /** When the socket's last `userStatus` frame was taken (epoch ms; `claimStatusFrame`). */
  statusAt: z.number().optional(),
});
export type ConnectionItem = z.infer<typeof ConnectionItem>;

const MemberItem = z.object({
  connectionId: z.string(),
  userId: z.number().int(),
  profile: z.string(),
  super: z.boolean().optional(),
  queueIds: z.array(z.number().int()).default([]),
  allTicket: z.string().optional(),
  rooms: z.array(z.string()).default([]),
  tokenVersion: z.number().int().optional(),
  visible: z.boolean().optional(),
  expiresAt: z.number(),
});

/** The caller facts a registration keeps (from the verified token's user item). */
export interface SocketOwner {
  companyId: number;
  userId: number;
  profile: string;
  super: boolean;
  queueIds: number[];
  allTicket: string;
  /** The user's token version at `$connect`: a later bump (logout, single login, revocation) closes the socket. */
  tokenVersion?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Registers a freshly connected socket (both items, one transaction) and moves the user's presence check to the
 * registration's expiry (`./presence.ts`). `now` in ms, for tests.
 */
export async function registerSocket(connectionId: string, owner: SocketOwner, now = Date.now()): Promise<void> {
  const expiresAt = Math.floor(now / 1000) + SOCKET_TTL_SECONDS;
  const member: SocketMember = {
    connectionId,
    userId: owner.userId,
    profile: owner.profile,
    super: owner.super,
    queueIds: owner.queueIds,
    allTicket: owner.allTicket,
    rooms: [],
    tokenVersion: owner.tokenVersion ?? 0,
    expiresAt,
  };
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.wsConnection(connectionId),
              _type: "wsConnection",
              connectionId,
              companyId: owner.companyId,
              userId: owner.userId,
              connectedAt: new Date(now).toISOString(),
              expiresAt,
            },
          },
        },
        // The member item is also in the platform channel (announcements reach every company's sockets from it).
        { Put: { TableName: tableName(), Item: { ...keys.wsRoomMember(owner.companyId, "company", connectionId), ...keys.wsPlatformIndex(connectionId), _type: "wsMember", ...member } } },
      ],
    }),
  );
  // The user's presence check falls due when this (their newest) registration runs out (`./presence.ts`).
  await schedulePresenceCheck(owner.companyId, owner.userId, expiresAt * 1000);
  forgetSocketListing(owner.companyId);
}

/** The live registration of a connection id, or undefined when unknown or expired. */
export async function getSocket(connectionId: string): Promise<ConnectionItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.wsConnection(connectionId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const item = parseStored(ConnectionItem, out.Item);
  return item.expiresAt > nowSeconds() ? item : undefined;
}

/**
 * Takes a `userStatus` frame of a connection at `now` (epoch ms) when none was taken in the last `minGapMs`: one
 * conditional write of `statusAt` on the registration. False when one was (or the registration is gone).
 */
export async function claimStatusFrame(connectionId: string, now: number, minGapMs: number): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.wsConnection(connectionId),
        UpdateExpression: "SET statusAt = :now",
        ConditionExpression: "attribute_exists(PK) AND (attribute_not_exists(statusAt) OR statusAt <= :cutoff)",
        ExpressionAttributeValues: { ":now": now, ":cutoff": now - minGapMs },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** The company-room member item of a connection (rooms, queues), or undefined. */
export async function getSocketMember(companyId: number, connectionId: string): Promise<SocketMember | undefined> {
  const out = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: keys.wsRoomMember(companyId, "company", connectionId), ConsistentRead: true }),
  );
  return out.Item ? (parseStored(MemberItem, out.Item) as SocketMember) : undefined;
}

/**
 * Changes the rooms a socket joined (`"notification"`, `"tickets:<status>"`, `"ticket:<id>"`): `change` maps the
 * current list to the new one. Optimistic (condition on the old list, a few retries), so concurrent frames of one
 * socket never lose a join. Resolves false when the registration is gone.
 */
export async function updateRooms(companyId: number, connectionId: string, change: (rooms: string[]) => string[]): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const member = await getSocketMember(companyId, connectionId);
    if (!member) return false;
    const before = member.rooms ?? [];
    const after = [...new Set(change(before))];
    if (after.length === before.length && after.every((r, i) => r === before[i])) return true;
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.wsRoomMember(companyId, "company", connectionId),
          UpdateExpression: "SET rooms = :after",
          ConditionExpression: "attribute_exists(PK) AND rooms = :before",
          ExpressionAttributeValues: { ":after": after, ":before": before },
        }),
      );
      forgetSocketListing(companyId);
      return true;
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }
  return false;
}

/**
 * Records whether the socket's tab is visible (docs/product/push.md#visible-tab): no push reaches a user while one
 * of their tabs is. Resolves false when the registration is gone.
 */
export async function setSocketVisible(companyId: number, connectionId: string, visible: boolean): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.wsRoomMember(companyId, "company", connectionId),
        UpdateExpression: "SET visible = :v",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeValues: { ":v": visible },
      }),
    );
    forgetSocketListing(companyId);
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Live sockets of one user in a company (expired ones filtered out), read now (never a kept listing: closing them and presence must see them all). */
export async function userSockets(companyId: number, userId: number): Promise<SocketMember[]> {
  return (await companySockets(companyId, { fresh: true })).filter((m) => m.userId === userId);
}

/** Removes a connection's registration (no-op when unknown). Returns what was registered. */
export async function unregisterSocket(connectionId: string): Promise<ConnectionItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.wsConnection(connectionId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const item = parseStored(ConnectionItem, out.Item);
  await removeSocket(item.companyId, connectionId);
  return item;
}

/**
 * Ids of every registered connection, live or not. A full-table Scan: for the local stack only, where no socket
 * survives a restart, so every registration found at start is stale.
 */
export async function listAllConnectionIds(): Promise<string[]> {
  const prefix = keys.wsConnection("").PK;
  const ids: string[] = [];
  const pages = scanPages({
    FilterExpression: "begins_with(PK, :ws) AND SK = :sk",
    ExpressionAttributeValues: { ":ws": prefix, ":sk": keys.wsConnection("").SK },
    ProjectionExpression: "connectionId",
  });
  for await (const items of pages) for (const it of items) if (typeof it.connectionId === "string") ids.push(it.connectionId);
  return ids;
}

/** The access facts of a user a socket registration copies (from the user item). */
export interface SocketAccess {
  profile: string;
  super: boolean;
  queueIds: number[];
  allTicket: string;
}

/**
 * Keeps a user's open sockets in step with their access (docs/product/realtime.md#who-gets-a-frame): `access: null` (user deleted) closes every
 * socket of the user; a socket registered with a token version below `minTokenVersion` (logout, single login,
 * revocation) is closed (`DeleteConnection`) and unregistered; with `access` given, the others get the new profile,
 * super flag, queues and allTicket. Returns how many sockets were closed.
 */
export async function syncUserSockets(companyId: number, userId: number, change: { access?: SocketAccess | null; minTokenVersion?: number }): Promise<number> {
  const { access, minTokenVersion } = change;
  let closed = 0;
  for (const m of await userSockets(companyId, userId)) {
    if (access === null || (minTokenVersion != null && (m.tokenVersion ?? -1) < minTokenVersion)) {
      await disconnectSocket(m.connectionId);
      await removeSocket(companyId, m.connectionId);
      await schedulePresenceCheck(companyId, userId);
      closed++;
      continue;
    }
    if (!access) continue;
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.wsRoomMember(companyId, "company", m.connectionId),
          UpdateExpression: "SET profile = :p, #super = :s, queueIds = :q, allTicket = :a",
          ConditionExpression: "attribute_exists(PK)",
          ExpressionAttributeNames: { "#super": "super" },
          ExpressionAttributeValues: { ":p": access.profile, ":s": access.super, ":q": access.queueIds, ":a": access.allTicket },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }
  forgetSocketListing(companyId);
  return closed;
}
