/**
 * Invoices in DynamoDB (docs/product/invoices.md): `C#<cid>` / `INV#<id>` in the company partition (a company holds
 * one per billing period, read together with one prefix Query), the `C#<cid>` / `INVDUE#<dueDate>` marker that makes
 * the invoice of a due date unique, and the global `INVOICE#<id>` reference (its company) for a super user's
 * action on any company's invoice. Payment marks the invoice paid and moves the company's due date and its invoice
 * timer in one transaction.
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { invoiceTimerItem } from "../companies/repository.ts";
import { ddb, tableName, transactWrite } from "../db/client.ts";
import { cancellationReasons, failedConditionAt, unlessConditionFails } from "../db/errors.ts";
import { parseStored } from "../db/items.ts";
import { keys } from "../db/keys.ts";
import { queryAllByPrefix } from "../db/query.ts";
import { InvoiceItem } from "./schema.ts";

/** One invoice of the company (strongly consistent), or `undefined`. */
export async function getInvoice(companyId: number, id: number): Promise<InvoiceItem | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.invoice(companyId, id), ConsistentRead: true }));
  return out.Item ? parseStored(InvoiceItem, out.Item) : undefined;
}

/** The company of invoice `id` (from its global reference), or `undefined` when there is no such invoice. */
export async function invoiceCompany(id: number): Promise<number | undefined> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.invoiceRef(id) }));
  return typeof out.Item?.companyId === "number" ? out.Item.companyId : undefined;
}

/** Every invoice of the company, in id order (strongly consistent). */
export async function listInvoices(companyId: number): Promise<InvoiceItem[]> {
  const raw = await queryAllByPrefix(keys.companyPartition(companyId), keys.invoicePrefix, { ConsistentRead: true });
  return raw.map((it) => parseStored(InvoiceItem, it));
}

/**
 * Writes a new invoice unless its company already has one for its due date: the invoice, the due date's marker and
 * the global reference in one transaction, the marker conditioned on being absent. True when written, false when the
 * due date already had its invoice (two ticks racing: exactly one writes).
 */
export async function putInvoiceOnce(item: InvoiceItem): Promise<boolean> {
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: { ...keys.invoiceDue(item.companyId, item.dueDate), _type: "invoiceDue", invoiceId: item.id }, ConditionExpression: "attribute_not_exists(PK)" } },
      { Put: { TableName: tableName(), Item: { ...keys.invoice(item.companyId, item.id), _type: "invoice", ...item }, ConditionExpression: "attribute_not_exists(PK)" } },
      { Put: { TableName: tableName(), Item: { ...keys.invoiceRef(item.id), _type: "invoiceRef", companyId: item.companyId } } },
    ]);
    return true;
  } catch (err) {
    if (failedConditionAt(err, 0)) return false;
    // Another tick's transaction on the same marker at the same moment: that one writes the invoice.
    if (cancellationReasons(err)?.[0]?.Code === "TransactionConflict") return false;
    throw err;
  }
}

/**
 * Records the Pix charge of an open invoice that has none yet; answers the stored invoice (the first charge wins when
 * two PAGAR race: the other caller gets the winner's), or null when the invoice is gone.
 */
export async function setInvoiceCharge(companyId: number, id: number, charge: { txid: string; brCode: string }): Promise<InvoiceItem | null> {
  const out = await unlessConditionFails(() =>
    ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoice(companyId, id),
        UpdateExpression: "SET txid = :txid, brCode = :br, updatedAt = :now",
        ConditionExpression: "attribute_exists(PK) AND (attribute_not_exists(txid) OR txid = :null)",
        ExpressionAttributeValues: { ":txid": charge.txid, ":br": charge.brCode, ":now": new Date().toISOString(), ":null": null },
        ReturnValues: "ALL_NEW",
      }),
    ),
  );
  if (out) return parseStored(InvoiceItem, out.Attributes);
  return (await getInvoice(companyId, id)) ?? null;
}

/**
 * Marks an open invoice paid and moves its company's due date from `fromDueDate` to `toDueDate` (with the invoice
 * timer of the new date), in one transaction. Answers `paid` when this call applied it, `already` when the invoice
 * was no longer open (a repeated confirmation changes nothing), `moved` when the company's due date is no longer
 * `fromDueDate` (the caller reads the company again and retries).
 */
export async function markInvoicePaid(inv: InvoiceItem, fromDueDate: string | null, toDueDate: string): Promise<"paid" | "already" | "moved"> {
  const now = new Date().toISOString();
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: keys.invoice(inv.companyId, inv.id),
          UpdateExpression: "SET #s = :paid, paidAt = :now, updatedAt = :now",
          ConditionExpression: "#s = :open",
          ExpressionAttributeNames: { "#s": "status" },
          ExpressionAttributeValues: { ":paid": "paid", ":open": "open", ":now": now },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.company(inv.companyId),
          UpdateExpression: "SET dueDate = :to, updatedAt = :now",
          ConditionExpression: "attribute_exists(PK) AND dueDate = :from",
          ExpressionAttributeValues: { ":to": toDueDate, ":from": fromDueDate, ":now": now },
        },
      },
      invoiceTimerItem(inv.companyId, toDueDate),
    ]);
    return "paid";
  } catch (err) {
    if (failedConditionAt(err, 0)) return "already";
    if (failedConditionAt(err, 1) || cancellationReasons(err)?.some((r) => r.Code === "TransactionConflict")) return "moved";
    throw err;
  }
}
