/**
 * DynamoDB access for plans: global items `PLANS` / `PLAN#<id>`, parsed with {@link PlanItem} on read.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { AppError } from "../errors.ts";
import { keys } from "../db/keys.ts";
import { queryAll, queryAllByPrefix } from "../db/query.ts";
import { PlanItem } from "./schema.ts";
import { parseStored } from "../db/items.ts";

/** Reads one plan, or `undefined`. */
export async function getPlan(planId: number): Promise<PlanItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.plan(planId) }));
  return out.Item ? parseStored(PlanItem, out.Item) : undefined;
}

/** Every plan in id order. */
export async function listPlans(): Promise<PlanItem[]> {
  const { PK, SKPrefix } = keys.plansPrefix();
  return (await queryAllByPrefix(PK, SKPrefix)).map((it) => parseStored(PlanItem, it));
}

/** Writes a new plan (`attribute_not_exists`: a taken id → 409 `ERR_CONFLICT`). */
export async function putNewPlan(plan: PlanItem): Promise<void> {
  try {
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.plan(plan.id), _type: "plan", ...plan }, ConditionExpression: "attribute_not_exists(PK)" }));
  } catch (err) {
    if (isConditionFailed(err)) throw new AppError("ERR_CONFLICT");
    throw err;
  }
}

/** Replaces a plan read as `before` (conditioned on its `updatedAt`: a concurrent change → 409 `ERR_CONFLICT`). */
export async function replacePlan(before: PlanItem, after: PlanItem): Promise<void> {
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.plan(after.id), _type: "plan", ...after },
        ConditionExpression: "updatedAt = :seen",
        ExpressionAttributeValues: { ":seen": before.updatedAt },
      }),
    );
  } catch (err) {
    if (isConditionFailed(err)) throw new AppError("ERR_CONFLICT");
    throw err;
  }
}

/** Deletes a plan; false when it was already gone. */
export async function deletePlanItem(planId: number): Promise<boolean> {
  const out = await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.plan(planId), ReturnValues: "ALL_OLD" }));
  return !!out.Attributes;
}

/**
 * Whether any company is on plan `planId`: the `COMPANIES` index (GSI1) read with a filter until the first match. A
 * one-shot check for a super user's delete, never something that runs on a schedule.
 */
export async function planInUse(planId: number): Promise<boolean> {
  const hit = await queryAll(
    {
      IndexName: "GSI1",
      KeyConditionExpression: "GSI1PK = :pk",
      FilterExpression: "planId = :plan",
      ExpressionAttributeValues: { ":pk": keys.companiesIndex(0).GSI1PK, ":plan": planId },
      ProjectionExpression: "id",
    },
    1,
  );
  return hit.length > 0;
}

// ---- the plan counters (`./limits.ts`) --------------------------------------------------------------------------

/** A company's counter of one plan limit: its `count`, and whether it was `counted` (taken from the items themselves). */
export interface PlanCounter {
  count: number;
  counted: boolean;
}

/** Reads the counter of `kind` of a company (strongly consistent), or undefined when it has none. */
export async function readPlanCounter(companyId: number, kind: string): Promise<PlanCounter | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.planCount(companyId, kind), ConsistentRead: true }));
  if (!out.Item) return undefined;
  return { count: typeof out.Item.count === "number" ? out.Item.count : 0, counted: out.Item.counted === true };
}

/**
 * Sets the counter of `kind` to `count` (what the items themselves number) and marks it counted, on condition that it
 * is still as it was read (`seen`: absent, or its uncounted value that a deletion moved). False when it moved meanwhile.
 */
export async function initPlanCounter(companyId: number, kind: string, count: number, seen: PlanCounter | undefined): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.planCount(companyId, kind),
        UpdateExpression: "SET #c = :n, #k = :t, #ty = :ty",
        ConditionExpression: seen ? "attribute_not_exists(#k) AND #c = :seen" : "attribute_not_exists(PK)",
        ExpressionAttributeNames: { "#c": "count", "#k": "counted", "#ty": "_type" },
        ExpressionAttributeValues: { ":n": count, ":t": true, ":ty": "planCount", ...(seen ? { ":seen": seen.count } : {}) },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** The transaction item that takes one of `kind` for a creation: refused (condition) unless counted and below `limit`. */
export function planCounterTakeItem(companyId: number, kind: string, limit: number): TxItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.planCount(companyId, kind),
      UpdateExpression: "ADD #c :one",
      ConditionExpression: "#k = :t AND #c < :limit",
      ExpressionAttributeNames: { "#c": "count", "#k": "counted" },
      ExpressionAttributeValues: { ":one": 1, ":t": true, ":limit": limit },
    },
  };
}

/** The transaction item that gives one of `kind` back for a deletion (an uncounted counter is set right when first counted). */
export function planCounterReleaseItem(companyId: number, kind: string): TxItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.planCount(companyId, kind),
      UpdateExpression: "ADD #c :minus",
      ExpressionAttributeNames: { "#c": "count" },
      ExpressionAttributeValues: { ":minus": -1 },
    },
  };
}
