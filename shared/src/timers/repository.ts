/**
 * Reads for the timers that follow a connection's settings (issue 9 §5; `./connection-listener.ts`): the tickets of
 * ONE connection that a timer may concern, found through the ticket list indexes, page by page (`queryPages`), never
 * a scan:
 * - `open`: GSI1 `C#<cid>#S#open` (the `expiresTicket` and rating-wait timers);
 * - `pendingNoQueue`: GSI2 `C#<cid>#S#pending#Q#NONE` (the `timeToTransfer` timer).
 * Both partitions hold every connection's tickets of the company in that state, so the connection is a filter on
 * them (the same narrowing the row summaries use, `tickets/summaries.ts`); runs only when an admin changes a timer
 * field of a connection.
 */
import { queryPages } from "../db/query.ts";
import { keys } from "../db/keys.ts";
import { parseTicket } from "../tickets/summaries.ts";
import type { TicketItem } from "../tickets/schema.ts";

export type ConnectionTicketSet = "open" | "pendingNoQueue";

/** Pages of the tickets of connection `whatsappId` in `set` (newest activity first), at most 100 items read per page. */
export async function* connectionTicketPages(companyId: number, whatsappId: number, set: ConnectionTicketSet): AsyncGenerator<TicketItem[]> {
  const [index, pk] = set === "open" ? (["GSI1", keys.ticketStatusPK(companyId, "open")] as const) : (["GSI2", keys.ticketQueuePK(companyId, "pending", null)] as const);
  for await (const items of queryPages({
    IndexName: index,
    KeyConditionExpression: `${index}PK = :pk`,
    FilterExpression: "whatsappId = :wid",
    ExpressionAttributeValues: { ":pk": pk, ":wid": whatsappId },
    ScanIndexForward: false,
    Limit: 100,
  })) {
    yield items.map(parseTicket);
  }
}
