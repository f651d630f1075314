/**
 * DynamoDB access for companies (docs/architecture.md#3-the-table): `C#<cid>` / `#COMPANY` items, listed through GSI1 `COMPANIES`, parsed
 * with {@link CompanyItem} on read. A new company is written in one transaction with its first admin (and email
 * marker) and its default settings.
 */
import { platformCompanyAdded } from "../dashboard/repository.ts";
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchWriteAll } from "../db/batch.ts";
import { ddb, tableName, transactWrite } from "../db/client.ts";
import { bornIndexedPut } from "../search/backfill.ts";
import { bornCountedPut } from "../tickets/repository.ts";
import { bornLanedPut } from "../kanban/repository.ts";
import { bornReportedPut } from "../reports/repository.ts";
import { queryAll, queryPagesFrom } from "../db/query.ts";
import { failedConditionAt, isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { setFields } from "../db/update.ts";
import { AppError } from "../errors.ts";
import { defaultSettingItems, type SettingsMap } from "../settings/repository.ts";
import { userCreateItems } from "../users/repository.ts";
import type { UserItem } from "../users/schema.ts";
import { CompanyItem } from "./schema.ts";
import { parseStored } from "../db/items.ts";
import { INVOICE_LEAD_DAYS } from "../invoices/schema.ts";
import { INVOICE_DUE } from "../timers/kinds.ts";
import { timerDeleteItem, timerPutItem } from "../timers/repository.ts";

/**
 * The transact-write item that keeps a company's invoice timer on its due date (docs/product/invoices.md): due
 * 20 days before `dueDate` (at once when fewer remain), removed for a company without a due date. Every write of a
 * company's due date carries it, so the minute tick finds the next invoice through the due index alone.
 */
export function invoiceTimerItem(companyId: number, dueDate: string | null) {
  if (!dueDate) return timerDeleteItem(companyId, INVOICE_DUE, "due");
  return invoiceTimerPut(companyId, dueDate);
}

const invoiceTimerPut = (companyId: number, dueDate: string) =>
  timerPutItem(companyId, INVOICE_DUE, "due", Date.parse(dueDate) - INVOICE_LEAD_DAYS * 86_400_000, { dueDate });

/**
 * Writes a company's invoice timer for `dueDate` only when the company has none (one conditional Put): true when it
 * was written, false when a timer was there (a due-date write, or an earlier run, put it).
 */
export async function putInvoiceTimerIfAbsent(companyId: number, dueDate: string): Promise<boolean> {
  const { Put } = invoiceTimerPut(companyId, dueDate);
  try {
    await ddb().send(new PutCommand({ ...Put, ConditionExpression: "attribute_not_exists(PK)" }));
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** A page of the `COMPANIES` index as the invoice-timer backfill reads it: each company's id and due date. */
export interface CompanyDueDatePage {
  companies: { id: number; dueDate: string | null }[];
  /** Where the next page starts; undefined after the last one. */
  lastKey?: Record<string, unknown>;
}

/**
 * The pages of the `COMPANIES` index (GSI1) from `start` (a previous page's `lastKey`, or the beginning), `pageSize`
 * companies each, while `more()` says so. One-shot work only (a backfill carried by the tick, never every minute).
 */
export async function* companyDueDatePages(start: Record<string, unknown> | undefined, pageSize: number, more: () => boolean): AsyncGenerator<CompanyDueDatePage> {
  const input = {
    IndexName: "GSI1",
    KeyConditionExpression: "GSI1PK = :pk",
    ExpressionAttributeValues: { ":pk": keys.companiesIndex(0).GSI1PK },
    ProjectionExpression: "id, dueDate",
  };
  for await (const page of queryPagesFrom(input, start, () => (more() ? pageSize : null))) {
    const companies = page.items.flatMap((it) => (typeof it.id === "number" ? [{ id: it.id, dueDate: typeof it.dueDate === "string" && it.dueDate ? it.dueDate : null }] : []));
    yield { companies, lastKey: page.lastKey };
  }
}

/** True once the invoice-timer backfill walked every company (`keys.invoiceTimerBackfill`). */
export async function invoiceTimerBackfillDone(): Promise<boolean> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.invoiceTimerBackfill, ConsistentRead: true }));
  return out.Item?.done === true;
}

/** Marks the invoice-timer backfill done (with the number of timers it wrote, for the record). */
export async function markInvoiceTimerBackfillDone(written: number): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.invoiceTimerBackfill, _type: "invoiceTimerBackfill", done: true, written, at: new Date().toISOString() } }));
}

/** Reads one company, or `undefined`. */
export async function getCompany(companyId: number): Promise<CompanyItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.company(companyId), ConsistentRead: true }));
  return out.Item ? parseStored(CompanyItem, out.Item) : undefined;
}

/**
 * Writes a new company, its first admin with the email marker, every default setting (`settingOverrides` replace
 * defaults) and its search, tab-count, kanban lane and report backfill progress as done (born indexed) in one transaction. Email taken → 409 `ERR_EMAIL_ALREADY_EXISTS`; company id taken → 409 `ERR_CONFLICT`.
 */
export async function putNewCompany(company: CompanyItem, admin: UserItem, settingOverrides?: Partial<SettingsMap>): Promise<void> {
  try {
    await transactWrite([
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.company(company.id), ...keys.companiesIndex(company.id), _type: "company", ...company },
              ConditionExpression: "attribute_not_exists(PK)",
            },
          },
          ...userCreateItems(admin),
          ...defaultSettingItems(company.id, settingOverrides),
          bornIndexedPut(company.id), // its writes index themselves: no search backfill (search/backfill-job.ts)
          bornCountedPut(company.id), // its tickets count themselves: no tab-count backfill (tickets/counts-backfill.ts)
          bornLanedPut(company.id), // its ticket writes keep their kanban lanes: no lane backfill (kanban/backfill.ts)
          bornReportedPut(company.id), // its cycles write their report entries: no report backfill (reports/backfill.ts)
          platformCompanyAdded(), // the super users' companies card (dashboard/repository.ts)
          invoiceTimerItem(company.id, company.dueDate),
        ]);
  } catch (err) {
    if (failedConditionAt(err, 2)) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
    if (failedConditionAt(err, 0)) throw new AppError("ERR_CONFLICT");
    throw err;
  }
}

/** Sets the given attributes of an existing company; returns the new item. Missing company → 404 `ERR_NO_COMPANY_FOUND`. */
export async function updateCompanyFields(companyId: number, set: Record<string, unknown>): Promise<CompanyItem> {
  if (set.dueDate !== undefined) return updateCompanyDueDate(companyId, set);
  try {
    const out = await ddb().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.company(companyId), ...setFields(set), ConditionExpression: "attribute_exists(PK)", ReturnValues: "ALL_NEW" }),
    );
    return parseStored(CompanyItem, out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) throw new AppError("ERR_NO_COMPANY_FOUND");
    throw err;
  }
}

/** {@link updateCompanyFields} of a change that writes `dueDate`: the company and its invoice timer in one transaction. */
async function updateCompanyDueDate(companyId: number, set: Record<string, unknown>): Promise<CompanyItem> {
  try {
    await transactWrite([
      { Update: { TableName: tableName(), Key: keys.company(companyId), ...setFields(set), ConditionExpression: "attribute_exists(PK)" } },
      invoiceTimerItem(companyId, (set.dueDate as string | null) ?? null),
    ]);
  } catch (err) {
    if (failedConditionAt(err, 0)) throw new AppError("ERR_NO_COMPANY_FOUND");
    throw err;
  }
  const after = await getCompany(companyId);
  if (!after) throw new AppError("ERR_NO_COMPANY_FOUND");
  return after;
}

/**
 * Ids of every company, from the `COMPANIES` index (GSI1). For one-shot work only (a deploy, the local stack's
 * start: the search backfill); nothing that runs every minute may list companies (its cost would grow with them).
 */
export async function listCompanyIds(): Promise<number[]> {
  const items = await queryAll({
    IndexName: "GSI1",
    KeyConditionExpression: "GSI1PK = :pk",
    ExpressionAttributeValues: { ":pk": keys.companiesIndex(0).GSI1PK },
    ProjectionExpression: "id",
  });
  return items.flatMap((it) => (typeof it.id === "number" ? [it.id] : []));
}

/** Every company, from the `COMPANIES` index (GSI1), by id. For the super user's screens (one partition's Query). */
export async function listCompanyItems(): Promise<CompanyItem[]> {
  const items = await queryAll({ IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": keys.companiesIndex(0).GSI1PK } });
  return items.map((it) => parseStored(CompanyItem, it));
}

/** A raw stored item as the company purge reads it: its keys and the few attributes that name its satellites. */
export type PurgeItem = Record<string, unknown> & { PK: string; SK: string };

/**
 * One page (at most `limit` items) of partition `pk` of the table, or of `index` (GSI1-4), from its start: the company
 * purge deletes what it read, so each step reads from the start again (no cursor to keep). Strongly consistent on the table.
 */
export async function purgePage(pk: string, limit: number, opts: { index?: "GSI1" | "GSI4"; skPrefix?: string } = {}): Promise<PurgeItem[]> {
  const pkAttr = opts.index ? `${opts.index}PK` : "PK";
  const skAttr = opts.index ? `${opts.index}SK` : "SK";
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      ...(opts.index ? { IndexName: opts.index } : { ConsistentRead: true }),
      KeyConditionExpression: opts.skPrefix ? "#pk = :pk AND begins_with(#sk, :p)" : "#pk = :pk",
      ExpressionAttributeNames: { "#pk": pkAttr, ...(opts.skPrefix ? { "#sk": skAttr } : {}) },
      ExpressionAttributeValues: { ":pk": pk, ...(opts.skPrefix ? { ":p": opts.skPrefix } : {}) },
      Limit: limit,
    }),
  );
  return (out.Items ?? []) as PurgeItem[];
}

/** Deletes the items at `itemKeys` (batches of 25, retried); keys of items already gone are fine. */
export async function deleteKeys(itemKeys: { PK: string; SK: string }[]): Promise<void> {
  const seen = new Set<string>();
  const unique = itemKeys.filter((k) => !seen.has(`${k.PK}|${k.SK}`) && seen.add(`${k.PK}|${k.SK}`));
  await batchWriteAll(unique.map((Key) => ({ DeleteRequest: { Key: { PK: Key.PK, SK: Key.SK } } })));
}

/** Deletes the company item (last step of its purge) and takes it out of the super users' companies count; false when already gone. */
export async function deleteCompanyRecord(companyId: number): Promise<boolean> {
  try {
    await transactWrite([
      { Delete: { TableName: tableName(), Key: keys.company(companyId), ConditionExpression: "attribute_exists(PK)" } },
      { Update: { TableName: tableName(), Key: keys.platformStats, UpdateExpression: "ADD companies :minus", ExpressionAttributeValues: { ":minus": -1 } } },
    ]);
    return true;
  } catch (err) {
    if (failedConditionAt(err, 0)) return false;
    throw err;
  }
}
