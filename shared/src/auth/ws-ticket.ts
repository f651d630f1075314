/**
 * WebSocket tickets: the browser opens `/ws?ticket=<opaque>` instead of putting its access token in the
 * URL (URLs land in CloudFront and API Gateway logs). `POST /api/auth/ws-ticket` (authenticated) issues a random
 * 256-bit ticket stored as its SHA-256 (`keys.wsTicket`) with the caller's company, user and token version, valid
 * {@link WS_TICKET_TTL_SECONDS} s; `$connect` redeems it once (a conditional delete: a second use finds nothing).
 */
import { createHash, randomBytes } from "node:crypto";
import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { AppError } from "../errors.ts";
import type { AuthContext, TokenClaims } from "./tokens.ts";

/** How long a ticket may wait before `$connect` (seconds). */
export const WS_TICKET_TTL_SECONDS = 60;

const digest = (ticket: string) => createHash("sha256").update(ticket).digest("base64url");

/** Issues a single-use ticket for the caller: `{ticket, expiresInSeconds}`. */
export async function issueWsTicket(auth: Pick<AuthContext, "companyId" | "userId" | "tokenVersion">): Promise<{ ticket: string; expiresInSeconds: number }> {
  const ticket = randomBytes(32).toString("base64url");
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.wsTicket(digest(ticket)),
        _type: "wsTicket",
        companyId: auth.companyId,
        userId: auth.userId,
        tokenVersion: auth.tokenVersion,
        expiresAt: Math.floor(Date.now() / 1000) + WS_TICKET_TTL_SECONDS,
      },
    }),
  );
  return { ticket, expiresInSeconds: WS_TICKET_TTL_SECONDS };
}

/**
 * Redeems a ticket once and returns the claims it was issued for (the caller then loads the user fresh, so a token
 * version bumped meanwhile still refuses). Unknown, used, expired or malformed → 401 `ERR_SESSION_EXPIRED`.
 */
export async function redeemWsTicket(ticket: string | undefined): Promise<TokenClaims> {
  if (!ticket || !/^[A-Za-z0-9_-]{43}$/.test(ticket)) throw new AppError("ERR_SESSION_EXPIRED", 401);
  try {
    const out = await ddb().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.wsTicket(digest(ticket)),
        ConditionExpression: "attribute_exists(PK) AND expiresAt > :now",
        ExpressionAttributeValues: { ":now": Math.floor(Date.now() / 1000) },
        ReturnValues: "ALL_OLD",
      }),
    );
    const it = out.Attributes!;
    return { userId: Number(it.userId), companyId: Number(it.companyId), tokenVersion: Number(it.tokenVersion) };
  } catch (err) {
    if (isConditionFailed(err)) throw new AppError("ERR_SESSION_EXPIRED", 401);
    throw err;
  }
}
