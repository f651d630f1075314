/**
 * What the presence check does when it fires (a user's online status, docs/product/users.md#online-status; a due-time
 * item, so the minute tick never lists every company): a user whose `online` flag is true and who has no live socket registration left (all expired, or removed
 * without `$disconnect`) is set offline (`user.updated`); a user who still has live sockets is looked at again when the
 * newest of them expires. Scheduled through `./presence.ts`; imported by the minute tick (`functions/src/jobs/tick.ts`).
 */
import { registerTimerKind } from "../timers/index.ts";
import { getUser } from "../users/repository.ts";
import { setUserOnline } from "../users/service.ts";
import { PRESENCE_CHECK } from "./presence.ts";
import { companySockets } from "./publish.ts";

/** Users set offline by this process' presence checks (the tick reports the difference). */
export const presenceCounts = { setOffline: 0 };

registerTimerKind(PRESENCE_CHECK, async (timer, now) => {
  const userId = Number(timer.ref);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const live = (await companySockets(timer.companyId, { fresh: true })).filter((m) => m.userId === userId && m.expiresAt > nowSeconds);
  if (live.length) return { rescheduleAt: Math.max(...live.map((m) => m.expiresAt)) * 1000 };
  const user = await getUser(timer.companyId, userId);
  if (user?.online) {
    await setUserOnline(timer.companyId, userId, false);
    presenceCounts.setOffline++;
  }
  return undefined;
});
