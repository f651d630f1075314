/**
 * DynamoDB access for plans: global items `PLANS` / `PLAN#<id>`, parsed with {@link PlanItem} on read.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { PlanItem } from "./schema.ts";

/** Reads one plan, or `undefined`. */
export async function getPlan(planId: number): Promise<PlanItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.plan(planId) }));
  return out.Item ? PlanItem.parse(out.Item) : undefined;
}

/** Every plan in id order. */
export async function listPlans(): Promise<PlanItem[]> {
  const { PK, SKPrefix } = keys.plansPrefix();
  return (await queryAllByPrefix(PK, SKPrefix)).map((it) => PlanItem.parse(it));
}
