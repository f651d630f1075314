/**
 * Users cache (kit `pagedCache`): the users pages (GET /api/users, searched by name or email) and the whole-company list
 * (GET /api/users/list), updated by mutations and by `company-{id}-user` create/update/delete frames.
 */
import type { QueryClient } from "@tanstack/react-query";
import { pagedCache } from "../../ui/kit/crud.ts";
import type { User } from "./types.ts";

const matches = (user: User, search: string) => {
  const s = search.toLowerCase();
  return !s || user.name.toLowerCase().includes(s) || user.email.toLowerCase().includes(s);
};

export const usersCache = pagedCache<User, "users">({ root: "users", field: "users", matches, withList: true });

export const usersKeys = {
  all: usersCache.keys.all,
  pagesAll: usersCache.keys.pagesAll,
  pages: usersCache.keys.pages,
  list: () => usersCache.keys.list,
};

/** Inserts or replaces a user in every loaded users page and list (new users go first where they match the search). */
export const upsertUser = (qc: QueryClient, user: User) => usersCache.upsert(qc, user);
/** Removes a user from every loaded users page and list. */
export const removeUser = (qc: QueryClient, userId: number) => usersCache.remove(qc, userId);
