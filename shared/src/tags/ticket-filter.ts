/**
 * The tickets of some tags, by key (the Tickets screen's search tab, tag filter; the tag edges on GSI4,
 * docs/architecture.md#3-the-table): one GSI4 query per tag, merged newest ticket first, deduplicated (a ticket carrying two of the tags
 * appears once: the filter is "any of these tags"). No page of all tickets is read and filtered.
 */
import { decodeCursor, encodeCursor, startKeyOf } from "../db/cursor.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import { queryTagEdges, type TagEdgeRef } from "./repository.ts";

/** Per tag: the key to resume after, `null` when that tag's edges are all read (absent = from the start). */
type TagCursor = { g: Record<string, Record<string, unknown> | null> };

/**
 * One page of ticket ids carrying any of `tagIds`, newest ticket (creation) first, at most `limit`. `cursor` is the
 * previous page's `nextCursor` (opaque; a cursor naming another company's partitions → 400 `ERR_INVALID_CURSOR`).
 */
export async function pageTaggedTicketIds(
  companyId: number,
  tagIds: number[],
  limit: number,
  cursor?: string,
): Promise<{ ticketIds: number[]; nextCursor?: string }> {
  const tags = [...new Set(tagIds)];
  const cur = decodeCursor<TagCursor>(cursor);
  const starts: Record<string, Record<string, unknown> | null | undefined> = {};
  if (cur) {
    if (!cur.g || typeof cur.g !== "object") throw new AppError("ERR_INVALID_CURSOR", 400);
    for (const [tag, key] of Object.entries(cur.g)) {
      if (!tags.includes(Number(tag))) throw new AppError("ERR_INVALID_CURSOR", 400);
      const own = { pk: keys.tagTicketsPK(companyId, Number(tag)), index: "GSI4", pkPrefix: keys.ticketPartitionPrefix(companyId) } as const;
      starts[tag] = key === null ? null : startKeyOf(key, companyId, own);
    }
  }
  // Each unfinished tag gives up to `limit` edges; the newest `limit` distinct tickets of the union then never lie
  // past any tag's last read edge (that tag alone has `limit` distinct tickets above it).
  const reads = await Promise.all(
    tags
      .filter((t) => starts[t] !== null)
      .map(async (t) => ({ tag: t, ...(await queryTagEdges(companyId, t, { limit, startKey: starts[t] ?? undefined })) })),
  );
  const all: (TagEdgeRef & { tag: number })[] = reads.flatMap((r) => r.edges.map((e) => ({ ...e, tag: r.tag })));
  all.sort((x, y) => (x.sk < y.sk ? 1 : x.sk > y.sk ? -1 : 0));
  const ticketIds: number[] = [];
  const lastTaken = new Map<number, Record<string, unknown>>();
  const takenCount = new Map<number, number>();
  let cutSk: string | undefined;
  for (const e of all) {
    if (ticketIds.length >= limit && e.sk !== cutSk) break;
    if (!ticketIds.includes(e.ticketId)) ticketIds.push(e.ticketId);
    cutSk = e.sk;
    lastTaken.set(e.tag, e.key);
    takenCount.set(e.tag, (takenCount.get(e.tag) ?? 0) + 1);
  }
  const next: TagCursor = { g: {} };
  let more = false;
  for (const t of tags) {
    if (starts[t] === null) {
      next.g[t] = null;
      continue;
    }
    const r = reads.find((x) => x.tag === t)!;
    const allTaken = (takenCount.get(t) ?? 0) === r.edges.length;
    if (allTaken && !r.lastKey) next.g[t] = null;
    else {
      more = true;
      const resume = lastTaken.get(t) ?? starts[t];
      if (resume) next.g[t] = resume;
    }
  }
  return { ticketIds, nextCursor: more ? encodeCursor(next as unknown as Record<string, unknown>) : undefined };
}
