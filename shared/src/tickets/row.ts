/**
 * The ticket's packed row (so a tab page costs one Query and little CPU): beside its attributes, a ticket
 * item carries `row`, one JSON string of everything a list row reads of it (the ticket's fields and its summaries,
 * {@link ROW_ATTRIBUTES}), and `rowRev`, the `rev` (`revision.ts`) it was packed at. A list Query projects only the
 * keys, `rev`, `row`, `rowRev` and five small attributes: DynamoDB sends one string per item instead of some forty nested attributes, and we
 * parse it with `JSON.parse` instead of unmarshalling them (measured at 1k tickets, page of 40: about 3 ms less of
 * Node and 2.7 ms less of DynamoDB Local's CPU per page).
 *
 * What every message changes ({@link ROW_VOLATILE}: the preview, `updatedAt`, the unread and message counts) stays
 * out of the row: a list Query projects those few attributes beside it and lays them over the row. So a message's
 * write leaves the row as it is and adds 1 to `rowRev` with `rev` (`ADD rowRev`): a current row stays current, a
 * stale one stays stale, without sending the row (about 1 KB) and without DynamoDB rewriting it per message.
 *
 * The row is derived data, current only while `rowRev = rev`. Writes that know the resulting item exactly write it too
 * (a new ticket; a message stored at the copy's `rev` whose row was not known current, `messages/repository.ts`);
 * any other write moves `rev` and so leaves the row stale. A list page reads the stale ones' full items in one
 * BatchGet and re-packs them in the background, conditioned on `rev` (a repair never moves `rev`: it changes nothing
 * the ticket says).
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { batchGetRaw } from "../db/batch.ts";
import { ddb, tableName } from "../db/client.ts";
import { deferWork } from "../events/dispatch.ts";
import { log } from "../log.ts";
import { TicketItem } from "./schema.ts";

/**
 * The ticket fields every stored message changes (`messages/repository.ts` `ingestMessage`): kept out of the packed
 * row and projected beside it, so a message's write need not pack the row again.
 */
export const ROW_VOLATILE = ["lastMessage", "updatedAt", "unreadMessages", "messagesIn", "messagesOut"] as const;

/** What a list row reads of a ticket item: its keys, its fields and its summaries (`summaries.ts`); not `rev` and {@link ROW_VOLATILE}, projected beside it. */
export const ROW_ATTRIBUTES = [
  "PK",
  "SK",
  ...Object.keys(TicketItem.shape).filter((k) => k !== "inDays" && k !== "rev" && !(ROW_VOLATILE as readonly string[]).includes(k)),
  "sumContact",
  "sumQueue",
  "sumUser",
  "sumWhatsapp",
  "sumTags",
];

/** `row` and `rowRev` for a full stored ticket item (`repository.ts` `ticketRecord`). */
export function rowAttributes(record: Record<string, unknown>): { row: string; rowRev: number } {
  const picked: Record<string, unknown> = {};
  for (const a of ROW_ATTRIBUTES) if (record[a] !== undefined) picked[a] = record[a];
  return { row: JSON.stringify(picked), rowRev: Number(record.rev ?? 0) };
}

/** The projection a list Query asks for (`#rev`, `#row` are its names): the row, and what every message changes beside it. */
export const ROW_PROJECTION = { expression: `PK, SK, #rev, #row, rowRev, ${ROW_VOLATILE.join(", ")}`, names: { "#rev": "rev", "#row": "row" } };

/** A current packed row with the projected `rev` and {@link ROW_VOLATILE} laid over it (a row packed before they left it holds older copies). */
function unpacked(p: Record<string, unknown>): Record<string, unknown> {
  const item = JSON.parse(p.row as string) as Record<string, unknown>;
  item.rev = p.rev;
  for (const k of ROW_VOLATILE) if (p[k] !== undefined) item[k] = p[k];
  return item;
}

/**
 * Whether a ticket copy's stored row is known current (read with `rowRev = rev`, or kept so by the writes since):
 * the ingest then leaves the row as it is. Unknown (a copy built in memory, a list row): the ingest writes the row.
 */
export const rowKnownCurrent = new WeakMap<object, boolean>();

/**
 * The full ticket attributes of each projected list item, in order, beside the projected item: the packed row when
 * current, else the item read in one BatchGet (its row then re-packed in the background). An item gone meanwhile is
 * left out.
 */
export async function unpackRows(projected: Record<string, unknown>[]): Promise<{ projected: Record<string, unknown>; item: Record<string, unknown> }[]> {
  const out: (Record<string, unknown> | null)[] = projected.map((p) =>
    typeof p.row === "string" && Number(p.rowRev ?? -1) === Number(p.rev ?? 0) ? unpacked(p) : null,
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
