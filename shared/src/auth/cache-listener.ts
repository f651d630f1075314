/**
 * Keeps the HTTP path's cached caller contexts (`tokens.ts` `authenticateCached`) in step with the user items: a
 * user's entry is dropped on `user.updated`, `user.deleted`, `user.loggedIn` and `user.revoked` (events pattern,
 * `shared/src/events/README.md`), so in this process the next request reads the user item again; likewise a
 * company's cached visibility settings (`access/visibility.ts`) on `setting.updated`.
 */
import type { Listener } from "../events/registry.ts";
import { forgetVisibility } from "../access/visibility.ts";
import { forgetAuthContext } from "./tokens.ts";
import type {} from "../users/events.ts"; // the users events handled here (types only)

export const authCacheListener: Listener = {
  name: "authCache",
  async handle(event) {
    switch (event.type) {
      case "user.updated":
      case "user.loggedIn":
        forgetAuthContext(event.companyId, event.user.id);
        break;
      case "user.deleted":
      case "user.revoked":
        forgetAuthContext(event.companyId, event.userId);
        break;
      case "setting.updated":
        forgetVisibility(event.companyId);
        break;
    }
  },
};
