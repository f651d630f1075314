/**
 * `$connect` (issue 2 §5; DESIGN.md §3): redeems `?ticket=` (single use, 60 s, from `POST /api/auth/ws-ticket`) or,
 * for older clients, verifies `?token=` (an access token), and registers the connection
 * with the caller's companyId, userId, profile, super flag, queue ids and allTicket — all read fresh from the
 * user item through `authenticate`, never from the request.
 *
 * Sets the user's `online` flag true (before registering, so the frame goes only to the company's other sockets) through the users service (`user.updated` → the Users page row turns
 * Online live, attendance.md §2 Users page); `$disconnect` clears it when the user's last socket closes.
 *
 * Returns 200 when registered; 401 for a missing/bad/revoked token and 403 for an expired one (API Gateway, and
 * the local emulator, then refuse the upgrade with that status).
 */
import { authenticate, loadAuthContext } from "@atende/shared/auth/tokens";
import { redeemWsTicket } from "@atende/shared/auth/ws-ticket";
import { AppError } from "@atende/shared/errors";
import { log } from "@atende/shared/log";
import { registerSocket } from "@atende/shared/realtime/connections";
import { setUserOnline } from "@atende/shared/users/service";
import type { WsEvent, WsResult } from "./event.ts";

export async function handler(event: WsEvent): Promise<WsResult> {
  const connectionId = event.requestContext.connectionId;
  try {
    // A single-use ticket from POST /api/auth/ws-ticket keeps the access token out of URLs (and their logs).
    const q = event.queryStringParameters ?? {};
    const auth = q.ticket ? await loadAuthContext(await redeemWsTicket(q.ticket)) : await authenticate(q.token ?? undefined);
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
