/**
 * Realtime publishing (docs/product/realtime.md): `publish` sends `{"event": "company-{id}-{name}", "data": ...}`
 * to the company's open WebSocket connections that may see it, through the API Gateway management API
 * (`@connections`; the local emulator speaks the same protocol). A 410 (GoneException) removes the stale registration.
 *
 * Registry items (written by `functions/src/ws`): `WS#<connectionId>` and one member item per company at
 * `C#<cid>#ROOM#company` / `WS#<connectionId>` holding {connectionId, userId, profile, super, queueIds, allTicket,
 * rooms: string[] (joined rooms, e.g. "notification", "tickets:open", "ticket:<id>"), expiresAt (epoch s)}. The member
 * item is also in the platform channel (GSI2 `SOCKETS#<shard>`, `keys.wsPlatformIndex`): {@link sendPlatformFrames}
 * lists every socket of every company with one Query per shard (announcements, docs/product/announcements.md#live).
 */
import { ApiGatewayManagementApiClient, DeleteConnectionCommand, PostToConnectionCommand } from "@aws-sdk/client-apigatewaymanagementapi";
import { batchWriteAll } from "../db/batch.ts";
import { getConfig } from "../config.ts";
import { keys, WS_PLATFORM_SHARDS } from "../db/keys.ts";
import { queryPages } from "../db/query.ts";
import { log, sdkLogger } from "../log.ts";
import { schedulePresenceCheck } from "./presence.ts";
import { can, isAdminLike, type Permission } from "../access/permissions.ts";
import { canSee, type SeenTicket, type VisibilitySettings } from "../access/tickets.ts";
import { visibilitySettings } from "../settings/repository.ts";

/** Who may receive an event. Admins (and super users) of the company receive everything addressed to the company. */
export type Audience =
  | { kind: "company" }
  | { kind: "admins" }
  | { kind: "user"; userId: number }
  /**
   * Whoever may see the ticket (`access/tickets.ts` `canSee`: admins, its queue's users or allTicket users, its
   * assignee; closed and group tickets of others only with the company's viewclosed / viewgroups settings).
   */
  | { kind: "ticket"; ticket: SeenTicket }
  /** Whoever could see the ticket as `before` and may not see it as `after` (they drop it from their lists). */
  | { kind: "ticketLost"; before: SeenTicket; after: SeenTicket }
  /** Users of this queue, admins, and — when `queueId` is null — users with allTicket enabled. Plus `alsoUserId` (the assignee). */
  | { kind: "queue"; queueId: number | null; alsoUserId?: number | null }
  /**
   * Holders of a permission (`can`), or everyone but them (`not: true`), e.g. a setting's value redacted for non-admins;
   * plus `alsoUserId` (e.g. the owner of a personal record), minus `exceptUserId`.
   */
  | { kind: "permission"; permission: Permission; not?: boolean; alsoUserId?: number; exceptUserId?: number };

/** A registered socket as stored in the company room. */
export interface SocketMember {
  connectionId: string;
  userId: number;
  profile: string;
  super?: boolean;
  queueIds: number[];
  allTicket?: string;
  rooms?: string[];
  /** The user's token version when the socket connected. */
  tokenVersion?: number;
  /** Whether the tab is visible, as it last reported (`visibility` frame); never reported: taken as visible. */
  visible?: boolean;
  expiresAt: number;
}

let client: ApiGatewayManagementApiClient | undefined;
function mgmt(): ApiGatewayManagementApiClient | undefined {
  const endpoint = getConfig().WS_MANAGEMENT_ENDPOINT;
  if (!endpoint) return undefined;
  // `cacheMiddleware`: the middleware stack is resolved once per command type, not again for every post (nothing adds
  // middleware to this client; about 0.1 ms of CPU less per post, two posts per ingested message with two tabs open).
  client ??= new ApiGatewayManagementApiClient({ endpoint, region: getConfig().AWS_REGION, logger: sdkLogger, cacheMiddleware: true });
  return client;
}

/** Forgets the management client (tests and the local stack switch endpoints). */
export function resetRealtimeClient(): void {
  client = undefined;
}

/**
 * True when the socket's user is in `audience` (the one access rule: `canSee` for tickets, with the company's
 * `settings` when given; `can` for permissions).
 */
export function inAudience(m: SocketMember, audience: Audience, settings?: VisibilitySettings): boolean {
  switch (audience.kind) {
    case "company":
      return true;
    case "admins":
      return isAdminLike(m);
    case "user":
      return m.userId === audience.userId;
    case "ticket":
      return canSee(m, audience.ticket, settings);
    case "ticketLost":
      return canSee(m, audience.before, settings) && !canSee(m, audience.after, settings);
    case "queue":
      return canSee(m, { queueId: audience.queueId, userId: audience.alsoUserId });
    case "permission":
      return (can(m, audience.permission) !== !!audience.not || m.userId === audience.alsoUserId) && m.userId !== audience.exceptUserId;
  }
}

/** How long a listing of a company's sockets serves this process's frames (a registration change of this process drops it at once). */
export const SOCKET_LISTING_TTL_MS = 2_000;

/** Listings of a company's sockets, in flight or read less than {@link SOCKET_LISTING_TTL_MS} ago (`at`: when it was read, ms; in flight: infinite). */
const listings = new Map<number, { at: number; members: Promise<SocketMember[]> }>();

/**
 * Lists the live sockets of a company (expired registrations filtered out). For frames: calls while a listing is in
 * flight or within {@link SOCKET_LISTING_TTL_MS} after it was read share it (a burst of events of a company, e.g. a scheduled send's
 * ticket, message and summaries, costs one Query), and {@link forgetSocketListing} (every registration change of this
 * process) makes the next call read again. A socket registered, or whose access or rooms changed, in ANOTHER process is
 * seen up to that long later (docs/product/realtime.md#who-gets-a-frame). `fresh`: read now (and keep it for the
 * next calls), for what must see every socket (closing a user's sockets, presence).
 */
export function companySockets(companyId: number, opts: { fresh?: boolean } = {}): Promise<SocketMember[]> {
  const kept = listings.get(companyId);
  if (kept && !opts.fresh && Date.now() - kept.at < SOCKET_LISTING_TTL_MS) return kept.members;
  const entry = { at: Number.POSITIVE_INFINITY, members: listSockets(companyId) };
  const drop = () => listings.get(companyId) === entry && listings.delete(companyId);
  listings.set(companyId, entry);
  entry.members.then(
    () => {
      entry.at = Date.now();
      setTimeout(drop, SOCKET_LISTING_TTL_MS).unref();
    },
    drop,
  );
  return entry.members;
}

/** Makes the next {@link companySockets} of the company read again (a socket registered, joined a room, changed or left). */
export function forgetSocketListing(companyId: number): void {
  listings.delete(companyId);
}

async function listSockets(companyId: number): Promise<SocketMember[]> {
  const now = Math.floor(Date.now() / 1000);
  const out: SocketMember[] = [];
  for await (const items of queryPages({ KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": keys.wsRoomPK(companyId, "company") } })) {
    for (const it of items) if ((it.expiresAt as number) > now) out.push(it as unknown as SocketMember);
  }
  return out;
}

/** A ticket the company's settings restrict (closed or group): its audience needs viewclosed / viewgroups. */
const restricted = (t: SeenTicket) => t.status === "closed" || !!t.isGroup;

/**
 * The visibility settings the frames' audiences need: read once, only when a ticket audience names a closed or group
 * ticket. An unreadable settings item restricts (both disabled) rather than over-sharing.
 */
async function settingsFor(companyId: number, frames: OutboundFrame[]): Promise<VisibilitySettings | undefined> {
  const needed = frames.some(
    (f) => (f.audience.kind === "ticket" && restricted(f.audience.ticket)) || (f.audience.kind === "ticketLost" && (restricted(f.audience.before) || restricted(f.audience.after))),
  );
  if (!needed) return undefined;
  return visibilitySettings(companyId).catch((err) => {
    log("warn", "realtime: cannot read visibility settings", { companyId, err });
    return { viewclosed: "disabled", viewgroups: "disabled" };
  });
}

/** Removes a socket's registration (both items). */
export async function removeSocket(companyId: number, connectionId: string): Promise<void> {
  await batchWriteAll([
    { DeleteRequest: { Key: keys.wsConnection(connectionId) } },
    { DeleteRequest: { Key: keys.wsRoomMember(companyId, "company", connectionId) } },
  ]);
  forgetSocketListing(companyId);
}

/** One frame to send: `name` is the part after `company-{id}-`. */
export interface OutboundFrame {
  name: string;
  data: unknown;
  audience: Audience;
  /** Only sockets that joined this room. */
  room?: string;
}

/**
 * Sends `{event: "company-{companyId}-{name}", data}` to every socket of the company allowed by `audience`
 * (and, when `room` is given, only to sockets that joined that room). Never throws. Services do not call this:
 * they `dispatch` domain events and the realtime listener (`events/realtime.ts`) sends the frames.
 */
export async function publish(companyId: number, name: string, data: unknown, audience: Audience = { kind: "company" }, room?: string): Promise<void> {
  await sendFrames(companyId, [{ name, data, audience, room }]);
}

/**
 * Sends several frames over ONE listing of the company's sockets, each frame to its audience, frames in order per
 * socket. Never throws: a failed post is logged; a 410 deletes the stale registration. Resolves when every post settled.
 */
export async function sendFrames(companyId: number, frames: OutboundFrame[]): Promise<void> {
  const api = mgmt();
  if (!api || !frames.length) return;
  let members: SocketMember[];
  try {
    members = await companySockets(companyId);
  } catch (err) {
    log("warn", "realtime: cannot list sockets", { companyId, err });
    return;
  }
  if (!members.length) return;
  const settings = await settingsFor(companyId, frames);
  const encoded = frames.map((f) => ({ f, bytes: Buffer.from(JSON.stringify({ event: `company-${companyId}-${f.name}`, data: f.data })) }));
  const gone = new Set<string>();
  await Promise.all(
    members.map(async (m) => {
      for (const { f, bytes } of encoded) {
        if (gone.has(m.connectionId)) return;
        if (!inAudience(m, f.audience, settings) || (f.room && !(m.rooms ?? []).includes(f.room))) continue;
        try {
          await api.send(new PostToConnectionCommand({ ConnectionId: m.connectionId, Data: bytes }));
        } catch (err) {
          const status = (err as { $metadata?: { httpStatusCode?: number }; name?: string }).$metadata?.httpStatusCode;
          if (status === 410 || (err as Error).name === "GoneException") {
            gone.add(m.connectionId);
            await removeSocket(companyId, m.connectionId).catch(() => undefined);
            // Gone without `$disconnect` reaching us: the next tick checks whether the user is still online.
            await schedulePresenceCheck(companyId, m.userId).catch(() => undefined);
          } else {
            log("warn", "realtime: post failed", { companyId, connectionId: m.connectionId, err });
          }
        }
      }
    }),
  );
}

/** Posts at the same time to at most this many sockets per platform frame batch (one Lambda's HTTP connections). */
const PLATFORM_POST_CONCURRENCY = 50;

/** The live sockets of one platform shard (GSI2 `SOCKETS#<shard>`, one paged Query), expired ones filtered out. Throws when the Query fails. */
async function platformShardSockets(shard: number): Promise<{ companyId: number; member: SocketMember }[]> {
  const now = Math.floor(Date.now() / 1000);
  const out: { companyId: number; member: SocketMember }[] = [];
  const pages = queryPages({ IndexName: "GSI2", KeyConditionExpression: "GSI2PK = :pk", ExpressionAttributeValues: { ":pk": keys.wsPlatformPK(shard) } });
  for await (const items of pages) {
    for (const it of items) {
      const companyId = keys.companyOfRoomPK(String(it.PK));
      if ((it.expiresAt as number) > now && companyId) out.push({ companyId, member: it as unknown as SocketMember });
    }
  }
  return out;
}

/**
 * Sends platform frames (announcements) to the sockets of ONE shard of the platform channel, each allowed by the
 * frame's `audience` and addressed with its own company: `{event: "company-{its companyId}-{name}", data}`. One paged
 * Query of the shard, no loop over companies; posts run {@link PLATFORM_POST_CONCURRENCY} at a time. A failed post is
 * logged, a 410 removes the stale registration. Returns the sockets posted to. Throws only when the shard cannot be
 * listed (nothing was posted: the caller may retry).
 */
export async function sendPlatformShardFrames(shard: number, frames: OutboundFrame[]): Promise<number> {
  const api = mgmt();
  if (!api || !frames.length) return 0;
  const sockets = await platformShardSockets(shard);
  const data = frames.map((f) => JSON.stringify(f.data));
  let next = 0;
  let posted = 0;
  const worker = async () => {
    while (next < sockets.length) {
      const { companyId, member: m } = sockets[next++];
      for (let i = 0; i < frames.length; i++) {
        const f = frames[i];
        if (!inAudience(m, f.audience) || (f.room && !(m.rooms ?? []).includes(f.room))) continue;
        const bytes = Buffer.from(`{"event":${JSON.stringify(`company-${companyId}-${f.name}`)},"data":${data[i]}}`);
        try {
          await api.send(new PostToConnectionCommand({ ConnectionId: m.connectionId, Data: bytes }));
          posted++;
        } catch (err) {
          const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
          if (status === 410 || (err as Error).name === "GoneException") {
            await removeSocket(companyId, m.connectionId).catch(() => undefined);
            await schedulePresenceCheck(companyId, m.userId).catch(() => undefined);
            break;
          }
          log("warn", "realtime: platform post failed", { companyId, connectionId: m.connectionId, err });
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PLATFORM_POST_CONCURRENCY, sockets.length) }, worker));
  return posted;
}

/**
 * Sends platform frames to every shard of the platform channel from this process ({@link sendPlatformShardFrames}
 * for each, in parallel). The product sends them through one job per shard instead (`realtime/platform.ts`); this is
 * the path without a dispatch queue (a test or tool with no SQS). Never throws: a shard that cannot be listed is logged.
 */
export async function sendPlatformFrames(frames: OutboundFrame[]): Promise<void> {
  await Promise.all(
    Array.from({ length: WS_PLATFORM_SHARDS }, (_, shard) =>
      sendPlatformShardFrames(shard, frames).catch((err) => log("warn", "realtime: cannot list a platform shard", { shard, err })),
    ),
  );
}

/** Closes a socket from the server side (e.g. single login). */
export async function disconnectSocket(connectionId: string): Promise<void> {
  const api = mgmt();
  if (!api) return;
  await api.send(new DeleteConnectionCommand({ ConnectionId: connectionId })).catch(() => undefined);
}

/**
 * Posts one JSON frame to one connection (e.g. the `{"error":"ERR_VALIDATION"}` answer to a bad frame).
 * Resolves false when the connection is gone (410) or no management endpoint is configured; never throws.
 */
export async function sendToConnection(connectionId: string, payload: unknown): Promise<boolean> {
  const api = mgmt();
  if (!api) return false;
  try {
    await api.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify(payload)) }));
    return true;
  } catch (err) {
    log("warn", "realtime: direct post failed", { connectionId, err });
    return false;
  }
}
