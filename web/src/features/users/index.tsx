/** Users area (admin): /users. */
import type { Feature } from "../types.ts";
import { UsersPage } from "./UsersPage.tsx";

export const usersFeature: Feature = {
  id: "users",
  routes: [{ path: "/users", element: <UsersPage /> }],
  menu: { path: "/users", labelKey: "menu.users", group: "administration", order: 40, access: "admin" },
};
