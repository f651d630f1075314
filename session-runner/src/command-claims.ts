/**
 * The claim items of session commands (`CMD#<commandId>`, `keys.command`): the runner's at-most-once record of each
 * command (claimed PROCESSING with an owner and claim expiry, then DONE with its result). Every DynamoDB call of
 * `commands.ts` is here; `commands.ts` keeps the queue polling and the command logic.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "@atende/shared/db/client";
import { isConditionFailed } from "@atende/shared/db/errors";
import { keys } from "@atende/shared/db/keys";

const DONE_TTL_SECONDS = 7 * 24 * 3600;

/** Outcome of claiming a command. */
export type Claim = "claimed" | "done" | "busy";

/**
 * Claims `CMD#<commandId>` for `owner` for `claimMs`: `done` when it was completed before, `busy` when another owner
 * holds a live claim, else `claimed` (a dead owner's expired claim is taken over).
 */
export async function claimCommand(commandId: string, owner: string, claimMs: number): Promise<Claim> {
  return (await claimCommandDetailed(commandId, owner, claimMs)).claim;
}

/**
 * {@link claimCommand} with what the previous owner left: `claimUntil` (ms epoch) of a live claim held by another
 * owner, and `takenOver` + `stage` when an expired claim of a dead owner was taken over (`stage` "sending" = it had
 * started a send whose outcome is unknown).
 */
export async function claimCommandDetailed(
  commandId: string,
  owner: string,
  claimMs: number,
): Promise<{ claim: Claim; claimUntil?: number; takenOver?: boolean; stage?: string }> {
  const now = Date.now();
  const before = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.command(commandId), ConsistentRead: true }));
  const prev = before.Item;
  if (prev?.state === "DONE") return { claim: "done" };
  if (prev?.state === "PROCESSING" && prev.owner !== owner && Number(prev.claimUntil) >= now) return { claim: "busy", claimUntil: Number(prev.claimUntil) };
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.command(commandId), _type: "command", state: "PROCESSING", owner, claimUntil: now + claimMs, expiresAt: Math.floor(now / 1000) + DONE_TTL_SECONDS },
        ConditionExpression: "attribute_not_exists(PK) OR (#s = :p AND (claimUntil < :now OR #o = :me))",
        ExpressionAttributeNames: { "#s": "state", "#o": "owner" },
        ExpressionAttributeValues: { ":p": "PROCESSING", ":now": now, ":me": owner },
      }),
    );
    const takenOver = prev?.state === "PROCESSING" && prev.owner !== owner;
    return { claim: "claimed", ...(takenOver ? { takenOver, stage: prev?.stage ? String(prev.stage) : undefined } : {}) };
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.command(commandId), ConsistentRead: true }));
    return out.Item?.state === "DONE" ? { claim: "done" } : { claim: "busy", claimUntil: Number(out.Item?.claimUntil ?? now + claimMs) };
  }
}

/** Records that the owner of a claim is about to hand a send to WhatsApp (a takeover then knows its outcome is unknown). */
export async function markSending(commandId: string, owner: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.command(commandId),
      UpdateExpression: "SET stage = :s",
      ConditionExpression: "#s = :p AND #o = :me",
      ExpressionAttributeNames: { "#s": "state", "#o": "owner" },
      ExpressionAttributeValues: { ":s": "sending", ":p": "PROCESSING", ":me": owner },
    }),
  );
}

/** Marks a claimed command DONE with its result (e.g. the WhatsApp message id). */
export async function completeCommand(commandId: string, result: Record<string, unknown>): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.command(commandId),
      UpdateExpression: "SET #s = :d, #r = :r, doneAt = :now REMOVE claimUntil",
      ExpressionAttributeNames: { "#s": "state", "#r": "result" },
      ExpressionAttributeValues: { ":d": "DONE", ":r": result, ":now": new Date().toISOString() },
    }),
  );
}

/** Drops our claim after a failure so the next delivery can claim at once. */
export async function releaseCommand(commandId: string, owner: string): Promise<void> {
  await ddb()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.command(commandId),
        ConditionExpression: "#s = :p AND #o = :me",
        ExpressionAttributeNames: { "#s": "state", "#o": "owner" },
        ExpressionAttributeValues: { ":p": "PROCESSING", ":me": owner },
      }),
    )
    .catch((err) => {
      if (!isConditionFailed(err)) throw err;
    });
}
