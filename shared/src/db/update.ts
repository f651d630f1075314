/**
 * Building `SET` update expressions from a plain object of fields (used by the repositories' Update items).
 */

/**
 * `SET #k = :k, …` for every field of `fields` that is not `undefined`, plus `updatedAt` (`now`, unless `fields` sets
 * it), with its attribute names and values, ready to spread into an Update.
 */
export function setFields(fields: Record<string, unknown>, now = new Date().toISOString()) {
  const ExpressionAttributeNames: Record<string, string> = {};
  const ExpressionAttributeValues: Record<string, unknown> = {};
  const parts: string[] = [];
  for (const [k, v] of Object.entries({ updatedAt: now, ...fields })) {
    if (v === undefined) continue;
    ExpressionAttributeNames[`#${k}`] = k;
    ExpressionAttributeValues[`:${k}`] = v;
    parts.push(`#${k} = :${k}`);
  }
  return { UpdateExpression: `SET ${parts.join(", ")}`, ExpressionAttributeNames, ExpressionAttributeValues };
}
