/**
 * `$disconnect`: removes the connection's registration and, when it was the user's last live socket,
 * sets the user's `online` flag false. Unknown connection ids are ignored (a 410 may have removed them already).
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { log } from "@atende/shared/log";
import { unregisterSocket, userSockets } from "@atende/shared/realtime/connections";
import { schedulePresenceCheck } from "@atende/shared/realtime/presence";
import { setUserOnline } from "@atende/shared/users/service";
import type { WsEvent, WsResult } from "./event.ts";

export async function handler(event: WsEvent): Promise<WsResult> {
  const connectionId = event.requestContext.connectionId;
  const reg = await unregisterSocket(connectionId);
  if (!reg) return { statusCode: 200 };
  const others = (await userSockets(reg.companyId, reg.userId)).filter((m) => m.connectionId !== connectionId);
  if (!others.length) {
    await setUserOnline(reg.companyId, reg.userId, false).catch(async (err) => {
      log("warn", "ws $disconnect: cannot set user offline", { companyId: reg.companyId, userId: reg.userId, err });
      // The next tick's presence check tries again.
      await schedulePresenceCheck(reg.companyId, reg.userId).catch(() => undefined);
    });
  }
  return { statusCode: 200 };
}
