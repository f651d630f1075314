/**
 * The ticket item's revision, `rev` (so the ingest can skip reading the ticket): every write of a ticket item adds 1
 * to it, so a copy kept in memory (the ingest's open-ticket cache, `ingest/read-cache.ts`) is confirmed current by a
 * write conditioned on `rev` instead of a read before each message. Unlike `version` (the agents' optimistic lock,
 * bumped only by transitions), `rev` also moves with messages, unread counts, presence, summaries and tags.
 */

/** The parts of an `Update` a revision bump touches. */
export interface RevisedUpdate {
  UpdateExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * `update` with `rev` incremented: `#rev :revOne` joins its `ADD` clause (or starts one). Names and values are merged;
 * the placeholders `#rev` and `:revOne` are reserved for this.
 */
export function bumpRev<T extends RevisedUpdate>(update: T): T {
  const add = /(^|\s)ADD\s/;
  const expr = add.test(update.UpdateExpression)
    ? update.UpdateExpression.replace(add, (m) => `${m}#rev :revOne, `)
    : `${update.UpdateExpression} ADD #rev :revOne`;
  return {
    ...update,
    UpdateExpression: expr.trim(),
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, "#rev": "rev" },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ":revOne": 1 },
  };
}

/**
 * The condition that the stored item is still at revision `rev` (a ticket written before revisions existed has none:
 * it counts as 0). Uses the names and values of {@link bumpRev} plus `:revWas`.
 */
export function atRev(rev: number): { condition: string; values: Record<string, unknown> } {
  return { condition: rev === 0 ? "(attribute_not_exists(#rev) OR #rev = :revWas)" : "#rev = :revWas", values: { ":revWas": rev } };
}
