/**
 * The ticket's packed row (so a tab page costs one Query and little CPU): beside its attributes, a ticket
 * item carries `row`, one JSON string of everything a list row reads of it (the ticket's fields and its summaries,
 * {@link ROW_ATTRIBUTES}), and `rowRev`, the `rev` (`revision.ts`) it was packed at. A list Query projects only the
 * keys, `rev`, `row` and `rowRev`: DynamoDB sends one string per item instead of some forty nested attributes, and we
 * parse it with `JSON.parse` instead of unmarshalling them (measured at 1k tickets, page of 40: about 3 ms less of
 * Node and 2.7 ms less of DynamoDB Local's CPU per page).
 *
 * The row is derived data, current only while `rowRev = rev`. Writes that know the resulting item exactly write it too
 * (a new ticket; a message stored at the copy's `rev`, `messages/repository.ts`); any other write moves `rev` and so
 * leaves the row stale. A list page reads the stale ones' full items in one BatchGet and re-packs them in the
 * background, conditioned on `rev` (a repair never moves `rev`: it changes nothing the ticket says).
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetRaw } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { deferWork } from "../events/dispatch.ts";
import { log } from "../log.ts";
import { TicketItem } from "./schema.ts";

/** What a list row reads of a ticket item: its keys, its fields and its summaries (`summaries.ts`). */
export const ROW_ATTRIBUTES = ["PK", "SK", ...Object.keys(TicketItem.shape).filter((k) => k !== "inDays"), "sumContact", "sumQueue", "sumUser", "sumWhatsapp", "sumTags"];

/** `row` and `rowRev` for a full stored ticket item (`repository.ts` `ticketRecord`). */
export function rowAttributes(record: Record<string, unknown>): { row: string; rowRev: number } {
  const picked: Record<string, unknown> = {};
  for (const a of ROW_ATTRIBUTES) if (record[a] !== undefined) picked[a] = record[a];
  return { row: JSON.stringify(picked), rowRev: Number(record.rev ?? 0) };
}

/** The projection a list Query asks for (`#rev`, `#row` are its names). */
export const ROW_PROJECTION = { expression: "PK, SK, #rev, #row, rowRev", names: { "#rev": "rev", "#row": "row" } };

/**
 * The full ticket attributes of each projected list item, in order, beside the projected item: the packed row when
 * current, else the item read in one BatchGet (its row then re-packed in the background). An item gone meanwhile is
 * left out.
 */
export async function unpackRows(projected: Record<string, unknown>[]): Promise<{ projected: Record<string, unknown>; item: Record<string, unknown> }[]> {
  const out: (Record<string, unknown> | null)[] = projected.map((p) =>
    typeof p.row === "string" && Number(p.rowRev ?? -1) === Number(p.rev ?? 0) ? (JSON.parse(p.row) as Record<string, unknown>) : null,
  );
  const paired = () => projected.flatMap((p, i) => (out[i] ? [{ projected: p, item: out[i]! }] : []));
  const stale = projected.filter((_, i) => !out[i]).map((p) => ({ PK: String(p.PK), SK: String(p.SK) }));
  if (!stale.length) return paired();
  const full = await batchGetRaw(stale);
  const repairs: Record<string, unknown>[] = [];
  projected.forEach((p, i) => {
    if (out[i]) return;
    const item = full.get(`${p.PK}|${p.SK}`);
    if (!item) return;
    out[i] = item;
    repairs.push(item);
  });
  deferWork(repairRows(repairs));
  return paired();
}

/** Re-packs the rows of full items read stale, each only if the item is still at the `rev` it was read at. */
async function repairRows(items: Record<string, unknown>[]): Promise<void> {
  await Promise.all(
    items.map(async (item) => {
      const { row, rowRev } = rowAttributes(item);
      try {
        await ddb().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: "SET #row = :row, rowRev = :rv",
            ConditionExpression: rowRev === 0 ? "attribute_not_exists(#rev) OR #rev = :rv" : "#rev = :rv",
            ExpressionAttributeNames: { "#row": "row", "#rev": "rev" },
            ExpressionAttributeValues: { ":row": row, ":rv": rowRev },
          }),
        );
      } catch (err) {
        // Written again since it was read: the next page re-packs it.
        if ((err as Error).name !== "ConditionalCheckFailedException") log("warn", "tickets: row repair failed", { pk: item.PK, err });
      }
    }),
  );
}
