/**
 * Shard leases (docs/architecture.md#7-the-session-runner-session-runner): item `LEASE#SHARD#<n>` holds `{owner, epoch, leaseUntil}`.
 * Acquire = conditional put with `epoch + 1` when the item is absent, expired or already ours; renew = conditional
 * update on `owner` and `epoch` ("lost" on a failed condition, "unknown" on a network error: keep the sockets, retry);
 * release = conditional delete of the expiry only (the epoch item stays, so epochs keep growing and fencing holds).
 * `leaseUntil` is epoch milliseconds; the table's TTL attribute is deliberately not used (TTL deleting a lease item
 * would reset its epoch).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "@atende/shared/db/client";
import { isConditionFailed } from "@atende/shared/db/errors";
import { keys } from "@atende/shared/db/keys";

export type RenewOutcome = "renewed" | "lost" | "unknown";

/** The leases one runner task holds. */
export class ShardLeases {
  private held = new Map<number, number>();

  constructor(
    readonly owner: string,
    readonly ttlMs = 30000,
  ) {}

  /** Epoch of a held shard, or undefined. */
  epoch(shard: number): number | undefined {
    return this.held.get(shard);
  }

  /** Shards held now. */
  shards(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** Tries to take (or keep) a shard; returns its epoch, or null when a live owner holds it. */
  async acquire(shard: number): Promise<number | null> {
    const now = Date.now();
    const cur = (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.lease(shard), ConsistentRead: true }))).Item;
    if (cur && cur.owner !== this.owner && Number(cur.leaseUntil ?? 0) > now) return null;
    const epoch = Number(cur?.epoch ?? 0) + 1;
    try {
      await ddb().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.lease(shard), _type: "lease", owner: this.owner, epoch, leaseUntil: now + this.ttlMs },
          ConditionExpression: cur ? "epoch = :old" : "attribute_not_exists(PK)",
          ...(cur ? { ExpressionAttributeValues: { ":old": Number(cur.epoch ?? 0) } } : {}),
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) return null;
      throw err;
    }
    this.held.set(shard, epoch);
    return epoch;
  }

  /** Extends a held shard's lease. */
  async renew(shard: number): Promise<RenewOutcome> {
    const epoch = this.held.get(shard);
    if (epoch == null) return "lost";
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.lease(shard),
          UpdateExpression: "SET leaseUntil = :t",
          ConditionExpression: "#o = :me AND epoch = :e",
          ExpressionAttributeNames: { "#o": "owner" },
          ExpressionAttributeValues: { ":t": Date.now() + this.ttlMs, ":me": this.owner, ":e": epoch },
        }),
      );
      return "renewed";
    } catch (err) {
      if (isConditionFailed(err)) {
        this.held.delete(shard);
        return "lost";
      }
      return "unknown";
    }
  }

  /** True when nobody holds a live lease on `shard` (consistent read). */
  async isFree(shard: number): Promise<boolean> {
    const cur = (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.lease(shard), ConsistentRead: true }))).Item;
    return !cur || Number(cur.leaseUntil ?? 0) <= Date.now();
  }

  /**
   * Announces this task as alive for `ttlMs` and returns how many runner tasks are alive now (this one included):
   * the divisor of the fair share of shards. Presence items live in one small partition (`RUNNERS`).
   */
  async heartbeat(): Promise<number> {
    const now = Date.now();
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.runnerPresence(this.owner), _type: "runnerPresence", owner: this.owner, aliveUntil: now + this.ttlMs, expiresAt: Math.floor((now + this.ttlMs) / 1000) + 3600 },
      }),
    );
    const out = await ddb().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": keys.runnerPresencePK }, ConsistentRead: true }),
    );
    return Math.max(1, (out.Items ?? []).filter((i) => Number(i.aliveUntil ?? 0) > now).length);
  }

  /** Withdraws this task's presence (graceful stop). */
  async leave(): Promise<void> {
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.runnerPresence(this.owner) }));
  }

  /** True when the lease of `shard` is still ours (consistent read). */
  async stillOwner(shard: number): Promise<boolean> {
    const cur = (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.lease(shard), ConsistentRead: true }))).Item;
    return !!cur && cur.owner === this.owner && Number(cur.epoch) === this.held.get(shard);
  }

  /** Gives a shard up (expires it now) when still ours. */
  async release(shard: number): Promise<void> {
    const epoch = this.held.get(shard);
    this.held.delete(shard);
    if (epoch == null) return;
    await ddb()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.lease(shard),
          UpdateExpression: "SET leaseUntil = :zero",
          ConditionExpression: "#o = :me AND epoch = :e",
          ExpressionAttributeNames: { "#o": "owner" },
          ExpressionAttributeValues: { ":zero": 0, ":me": this.owner, ":e": epoch },
        }),
      )
      .catch((err) => {
        if (!isConditionFailed(err)) throw err;
      });
  }
}
