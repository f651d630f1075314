/**
 * Users area (docs/product/users.md; admin): /users, its menu entry, texts and the `company-{id}-user` frames
 * (the pages and lists; the logged-in user's own record also refreshes the session).
 */
import { updateSessionUser, type Session } from "../../api/session.ts";
import { crudRealtime } from "../../ui/kit/crud.ts";
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, onePage, type Feature } from "../types.ts";
import { usersCache } from "./cache.ts";
import { usersTexts } from "./i18n.ts";
import type { User } from "./types.ts";

const UsersPage = lazyPage(() => import("./UsersPage.tsx"), "UsersPage");

export const usersFeature: Feature = {
  ...onePage("users", <UsersPage />, "administration", 40),
  access: ADMIN_ONLY,
  texts: { users: usersTexts },
  realtime: {
    user: crudRealtime("user", usersCache, (data, { session }) => {
      if (data.action === "delete") return;
      const user = data.user;
      if (user.id !== session.user.id) return;
      const { company: _c, ...rest } = user as User & { company?: unknown };
      updateSessionUser({ ...session.user, ...rest, queues: user.queues ?? session.user.queues } as Session["user"]);
    }),
  },
};
