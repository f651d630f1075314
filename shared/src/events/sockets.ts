/**
 * The sockets listener (access revoked means revoked, on open sockets too; docs/product/realtime.md#who-gets-a-frame): when a user's access changes,
 * their open sockets follow at once — the registration's profile, queues and allTicket are rewritten (so the realtime
 * audience uses the current rule), and a deleted user's sockets, or sockets older than a token version bump (logout,
 * single login, revocation), are closed with `DeleteConnection`. Runs after the realtime listener, so a user who is
 * logged out still receives the `auth` frame that tells the tab why.
 */
import { syncUserSockets } from "../realtime/connections.ts";
import type { Listener } from "./registry.ts";
import type {} from "../users/events.ts"; // the users events handled here (types only)

export const socketsListener: Listener = {
  name: "sockets",
  async handle(event) {
    switch (event.type) {
      case "user.updated": {
        const u = event.user;
        await syncUserSockets(event.companyId, u.id, { access: { profile: u.profile, super: !!u.super, queueIds: u.queueIds ?? [], allTicket: u.allTicket ?? "desabled" } });
        break;
      }
      case "user.deleted":
        await syncUserSockets(event.companyId, event.userId, { access: null });
        break;
      case "user.loggedIn":
        await syncUserSockets(event.companyId, event.user.id, { minTokenVersion: event.tokenVersion });
        break;
      case "user.revoked":
        await syncUserSockets(event.companyId, event.userId, { minTokenVersion: event.tokenVersion });
        break;
    }
  },
};
