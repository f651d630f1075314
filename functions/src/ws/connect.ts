/**
 * `$connect` (docs/product/realtime.md): redeems `?ticket=` (single use, 60 s, from
 * `POST /api/auth/ws-ticket`) and registers the connection with the caller's companyId, userId, profile, super flag,
 * queue ids and allTicket — all read fresh from the user item, never from the request. An access token in the URL
 * (`?token=`) is not accepted: it would land in CloudFront's logs. In the cloud the upgrade must carry CloudFront's
 * origin secret header (a direct call to the execute-api endpoint is refused with 403).
 *
 * Sets the user's `online` flag true (before registering, so the frame goes only to the company's other sockets)
 * through the users service (`user.updated` → the Users page row turns Online live);
 * `$disconnect` clears it when the user's last socket closes.
 *
 * Returns 200 when registered; 401 for a missing/bad/used/revoked ticket, 403 without the origin secret (API Gateway,
 * and the local emulator, then refuse the upgrade with that status).
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { originAllowed } from "@atende/shared/auth/origin";
import { loadAuthContext } from "@atende/shared/auth/tokens";
import { redeemWsTicket } from "@atende/shared/auth/ws-ticket";
import { AppError } from "@atende/shared/errors";
import { log } from "@atende/shared/log";
import { registerSocket } from "@atende/shared/realtime/connections";
import { setUserOnline } from "@atende/shared/users/service";
import type { WsEvent, WsResult } from "./event.ts";

export async function handler(event: WsEvent): Promise<WsResult> {
  const connectionId = event.requestContext.connectionId;
  try {
    if (!originAllowed(event.headers)) return { statusCode: 403, body: JSON.stringify({ error: "ERR_NO_PERMISSION" }) };
    // Only a single-use ticket from POST /api/auth/ws-ticket: the access token stays out of URLs (and their logs).
    const ticket = event.queryStringParameters?.ticket;
    if (!ticket) throw new AppError("ERR_SESSION_EXPIRED", 401);
    const auth = await loadAuthContext(await redeemWsTicket(ticket));
    // Online first: the `user.updated` frame must not reach this socket, which cannot be posted to before
    // `$connect` returns (a 410 there would unregister it as stale).
    await setUserOnline(auth.companyId, auth.userId, true).catch((err) =>
      log("warn", "ws $connect: cannot set user online", { companyId: auth.companyId, userId: auth.userId, err }),
    );
    await registerSocket(connectionId, {
      companyId: auth.companyId,
      userId: auth.userId,
      profile: auth.profile,
      super: auth.super,
      queueIds: auth.queueIds,
      allTicket: auth.allTicket,
      tokenVersion: auth.tokenVersion,
    });
    return { statusCode: 200 };
  } catch (err) {
    if (err instanceof AppError) return { statusCode: err.status === 403 ? 403 : 401, body: JSON.stringify(err.toJSON()) };
    log("error", "ws $connect failed", { connectionId, err });
    return { statusCode: 500 };
  }
}
