/** Users area (admin): /users. */
import type { Feature } from "../types.ts";
import { lazyPage } from "../lazy.tsx";

const UsersPage = lazyPage(() => import("./UsersPage.tsx"), "UsersPage");

export const usersFeature: Feature = {
  id: "users",
  routes: [{ path: "/users", element: <UsersPage /> }],
  menu: { path: "/users", labelKey: "menu.users", group: "administration", order: 40, access: "admin" },
};
