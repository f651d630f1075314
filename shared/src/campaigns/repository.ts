/**
 * Campaigns in DynamoDB (docs/architecture.md §3):
 * - the campaign, `C#<cid>` / `CAMPAIGN#<id>` (`keys.campaign`), read with the company's other campaigns by prefix;
 * - its shippings, one partition per campaign, `C#<cid>#CAMP#<id>` / `SHIP#<seq>`, with one member marker per number
 *   (`NUM#<digits>`) written in the same transaction, so a number is in a campaign once however often the audience
 *   is read;
 * - a connection's pacer `C#<cid>` / `CAMPPACE#<wid>` (versioned: two planners never take the same slot);
 * - the settings, `C#<cid>` / `CAMPSET#<key>`, one row per key with a JSON value.
 * Writes after the first are conditioned on what they were computed from (status, `updatedAt`, version), so a retried
 * or concurrent write applies at most once.
 */
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName, type TxItem } from "../db/client.ts";
import { cancellationReasons, unlessConditionFails } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix, queryPages } from "../db/query.ts";
import { CampaignItem, CampaignSettings, DEFAULT_CAMPAIGN_SETTINGS, PacerState, ShippingItem } from "./schema.ts";

const parseCampaign = (raw: Record<string, unknown>) => parseStored(CampaignItem, raw);
const parseShipping = (raw: Record<string, unknown>) => parseStored(ShippingItem, raw);

/** `SET #a = :a, ...` with its names and values, from a patch object. */
function setsOf(patch: Record<string, unknown>, tag = "p") {
  const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
  return {
    expr: entries.map((_, i) => `#${tag}${i} = :${tag}${i}`).join(", "),
    names: Object.fromEntries(entries.map(([k], i) => [`#${tag}${i}`, k])),
    values: Object.fromEntries(entries.map(([, v], i) => [`:${tag}${i}`, v])),
  };
}

// ---- campaigns ---------------------------------------------------------------------------------

/** One campaign of the company (strongly consistent), or `undefined`. */
export async function getCampaign(companyId: number, id: number): Promise<CampaignItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.campaign(companyId, id), ConsistentRead: true }));
  return out.Item ? parseCampaign(out.Item) : undefined;
}

/** Every campaign of the company, in id order. */
export async function listCampaigns(companyId: number): Promise<CampaignItem[]> {
  return (await queryAllByPrefix(keys.companyPartition(companyId), keys.campaignPrefix, { ConsistentRead: true })).map(parseCampaign);
}

/** Writes a new campaign (its id must be fresh). */
export async function putNewCampaign(c: CampaignItem): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.campaign(c.companyId, c.id), _type: "campaign", ...c }, ConditionExpression: "attribute_not_exists(PK)" }));
}

/**
 * Sets `patch` on the campaign when its stored `updatedAt` is `before.updatedAt` (and, with `status`, its status is
 * one of them). Returns the campaign after, or null when it changed meanwhile (or vanished).
 */
export async function patchCampaign(
  before: Pick<CampaignItem, "companyId" | "id" | "updatedAt">,
  patch: Partial<CampaignItem>,
  opts: { anyUpdatedAt?: boolean; status?: readonly string[] } = {},
): Promise<CampaignItem | null> {
  const s = setsOf(patch);
  const conds = ["attribute_exists(PK)"];
  const values: Record<string, unknown> = { ...s.values };
  if (!opts.anyUpdatedAt) {
    conds.push("updatedAt = :prev");
    values[":prev"] = before.updatedAt;
  }
  if (opts.status) {
    conds.push(`#st IN (${opts.status.map((_, i) => `:st${i}`).join(", ")})`);
    opts.status.forEach((st, i) => {
      values[`:st${i}`] = st;
    });
  }
  const out = await unlessConditionFails(() =>
    ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.campaign(before.companyId, before.id),
        UpdateExpression: `SET ${s.expr}`,
        ConditionExpression: conds.join(" AND "),
        ExpressionAttributeNames: { ...s.names, ...(opts.status ? { "#st": "status" } : {}) },
        ExpressionAttributeValues: values,
        ReturnValues: "ALL_NEW",
      }),
    ),
  );
  return out?.Attributes ? parseCampaign(out.Attributes) : null;
}

/** Adds `delta` to the campaign's counts (`valid`, `delivered`, `failed`, `awaiting`, `blocked`); returns it after. */
export async function addCampaignCounts(companyId: number, id: number, delta: Partial<Record<"valid" | "delivered" | "failed" | "awaiting" | "blocked", number>>, updatedAt: string): Promise<CampaignItem | null> {
  const entries = Object.entries(delta).filter(([, v]) => v);
  if (!entries.length) return (await getCampaign(companyId, id)) ?? null;
  const out = await unlessConditionFails(() =>
    ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.campaign(companyId, id),
        UpdateExpression: `ADD ${entries.map(([k]) => `#${k} :${k}`).join(", ")} SET updatedAt = :now`,
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k]) => [`#${k}`, k])),
        ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([k, v]) => [`:${k}`, v])), ":now": updatedAt },
        ReturnValues: "ALL_NEW",
      }),
    ),
  );
  return out?.Attributes ? parseCampaign(out.Attributes) : null;
}

/** Deletes the campaign as read (`before`); false when it changed or was already gone. */
export async function deleteCampaignItem(before: CampaignItem): Promise<boolean> {
  return (
    (await unlessConditionFails(() =>
      ddb().send(
        new DeleteCommand({ TableName: tableName(), Key: keys.campaign(before.companyId, before.id), ConditionExpression: "updatedAt = :prev", ExpressionAttributeValues: { ":prev": before.updatedAt } }),
      ),
    )) !== null
  );
}

// ---- shippings ---------------------------------------------------------------------------------

/**
 * Adds a shipping with its member marker (one transaction). Returns false when the number is already in the campaign
 * (the marker exists), so reading the audience again adds nobody twice.
 */
export async function putShippingOnce(s: ShippingItem): Promise<boolean> {
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: { ...keys.campaignMember(s.companyId, s.campaignId, s.number), seq: s.seq }, ConditionExpression: "attribute_not_exists(PK)" } },
          { Put: { TableName: tableName(), Item: { ...keys.campaignShipping(s.companyId, s.campaignId, s.seq), _type: "campaignShipping", ...s }, ConditionExpression: "attribute_not_exists(PK)" } },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (cancellationReasons(err)?.[0]?.Code === "ConditionalCheckFailed") return false;
    throw err;
  }
}

/** The seq already taken by `digits` in the campaign, or null. */
export async function memberSeq(companyId: number, campaignId: number, digits: string): Promise<number | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.campaignMember(companyId, campaignId, digits), ConsistentRead: true }));
  return out.Item ? Number(out.Item.seq) : null;
}

/** One shipping (strongly consistent), or `undefined`. */
export async function getShipping(companyId: number, campaignId: number, seq: number): Promise<ShippingItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.campaignShipping(companyId, campaignId, seq), ConsistentRead: true }));
  return out.Item ? parseShipping(out.Item) : undefined;
}

/** Pages of a campaign's shippings from sequence `fromSeq` on, in sequence order (strongly consistent). */
export async function* shippingPages(companyId: number, campaignId: number, fromSeq: number, limit = 100): AsyncGenerator<ShippingItem[]> {
  for await (const items of queryPages({
    KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
    ExpressionAttributeValues: { ":pk": keys.campaignShippingsPK(companyId, campaignId), ":from": keys.campaignShippingSK(fromSeq), ":to": keys.campaignShippingsEndSK },
    ConsistentRead: true,
    Limit: limit,
  })) {
    yield items.map(parseShipping);
  }
}

/** One page of a campaign's shippings for the report (`page` from 1). */
export async function shippingsPage(companyId: number, campaignId: number, page: number, size: number): Promise<{ records: ShippingItem[]; hasMore: boolean }> {
  const from = (page - 1) * size + 1;
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
      ExpressionAttributeValues: { ":pk": keys.campaignShippingsPK(companyId, campaignId), ":from": keys.campaignShippingSK(from), ":to": keys.campaignShippingsEndSK },
      Limit: size + 1,
    }),
  );
  const records = (out.Items ?? []).map(parseShipping);
  return { records: records.slice(0, size), hasMore: records.length > size };
}

/** The update that sets `patch` on a shipping on the condition that it is still as `before` was read (status and `updatedAt`). */
function shippingPatch(before: ShippingItem, patch: Partial<ShippingItem>) {
  const s = setsOf(patch);
  return {
    TableName: tableName(),
    Key: keys.campaignShipping(before.companyId, before.campaignId, before.seq),
    UpdateExpression: `SET ${s.expr}`,
    ConditionExpression: "#cst = :cst AND updatedAt = :cprev",
    ExpressionAttributeNames: { ...s.names, "#cst": "status" },
    ExpressionAttributeValues: { ...s.values, ":cst": before.status, ":cprev": before.updatedAt },
  };
}

/**
 * Sets `patch` on a shipping when it is still as read: status `before.status` and `updatedAt` `before.updatedAt`.
 * Returns the shipping after, or null when another delivery or planner changed it first.
 */
export async function patchShipping(before: ShippingItem, patch: Partial<ShippingItem>): Promise<ShippingItem | null> {
  const out = await unlessConditionFails(() => ddb().send(new UpdateCommand({ ...shippingPatch(before, patch), ReturnValues: "ALL_NEW" })));
  return out?.Attributes ? parseShipping(out.Attributes) : null;
}

/**
 * {@link patchShipping} and `also` (another item's write, e.g. the contact's reply wait) in one transaction: both or
 * neither. Returns the shipping as patched; `"shipping"` when the shipping changed since `before` was read (nothing
 * written), `"also"` when only `also`'s condition failed (nothing written: the caller may retry with another action).
 */
export async function patchShippingWith(before: ShippingItem, patch: Partial<ShippingItem>, also: TxItem): Promise<ShippingItem | "shipping" | "also"> {
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: [{ Update: shippingPatch(before, patch) }, also] }));
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (reasons?.[0]?.Code === "ConditionalCheckFailed") return "shipping";
    if (reasons?.[1]?.Code === "ConditionalCheckFailed") return "also";
    throw err;
  }
  return parseShipping({ ...keys.campaignShipping(before.companyId, before.campaignId, before.seq), ...before, ...patch });
}

/** Deletes every item of a campaign's partition (shippings and markers), 25 per call. */
export async function deleteShippings(companyId: number, campaignId: number): Promise<void> {
  for await (const items of queryPages({
    KeyConditionExpression: "PK = :pk",
    ExpressionAttributeValues: { ":pk": keys.campaignShippingsPK(companyId, campaignId) },
    ProjectionExpression: "PK, SK",
  })) {
    for (let i = 0; i < items.length; i += 25) {
      let req = items.slice(i, i + 25).map((it) => ({ DeleteRequest: { Key: { PK: it.PK, SK: it.SK } } }));
      for (let round = 0; req.length && round < 8; round++) {
        const out = await ddb().send(new BatchWriteCommand({ RequestItems: { [tableName()]: req } }));
        req = (out.UnprocessedItems?.[tableName()] ?? []) as typeof req;
      }
    }
  }
}

// ---- pacers ------------------------------------------------------------------------------------

/** A connection's pacing state (a fresh one when none is stored). */
export async function getPacer(companyId: number, whatsappId: number): Promise<PacerState> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.campaignPacer(companyId, whatsappId), ConsistentRead: true }));
  return parseStored(PacerState, out.Item ?? {});
}

/** Stores `next` when the stored state is still at `prevVersion`; false when another planner took a slot first. */
export async function savePacer(companyId: number, whatsappId: number, next: PacerState, prevVersion: number): Promise<boolean> {
  return (
    (await unlessConditionFails(() =>
      ddb().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.campaignPacer(companyId, whatsappId), _type: "campaignPacer", ...next },
          ConditionExpression: "attribute_not_exists(PK) OR version = :v",
          ExpressionAttributeValues: { ":v": prevVersion },
        }),
      ),
    )) !== null
  );
}

// ---- settings ----------------------------------------------------------------------------------

/** The company's campaign settings (defaults for keys never saved). A row failing its schema is our bug: throws. */
export async function getCampaignSettings(companyId: number): Promise<CampaignSettings> {
  const rows = await queryAllByPrefix(keys.companyPartition(companyId), keys.campaignSettingPrefix, { ConsistentRead: true });
  const stored = Object.fromEntries(rows.map((r) => [String(r.key), JSON.parse(String(r.value))]));
  return parseStored(CampaignSettings, { ...DEFAULT_CAMPAIGN_SETTINGS, ...stored });
}

/** Saves every key of `settings` as its own row (`{key, value: JSON}`). */
export async function saveCampaignSettings(companyId: number, settings: CampaignSettings, now: string): Promise<void> {
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: Object.entries(settings).map(([key, value]) => ({
        Put: { TableName: tableName(), Item: { ...keys.campaignSetting(companyId, key), _type: "campaignSetting", companyId, key, value: JSON.stringify(value), updatedAt: now } },
      })),
    }),
  );
}

// ---- campaign messages -------------------------------------------------------------------------

/** Notes which shipping each reserved WhatsApp id belongs to (a later failure of the message is counted there). */
export async function noteCampaignMessages(companyId: number, messageIds: string[], campaignId: number, seq: number): Promise<void> {
  await Promise.all(
    messageIds.map((id) => ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.campaignMessage(companyId, id), _type: "campaignMessage", campaignId, seq } }))),
  );
}

/** The shipping a WhatsApp message id was reserved for, or null (not a campaign message). */
export async function campaignMessageRef(companyId: number, messageId: string): Promise<{ campaignId: number; seq: number } | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.campaignMessage(companyId, messageId) }));
  return out.Item ? { campaignId: Number(out.Item.campaignId), seq: Number(out.Item.seq) } : null;
}
