/**
 * Users data hooks (the Users page's `/users` calls) on react-query:
 * - `useUsersPages(search)`: GET /api/users?searchParam&pageNumber → pages of `{users, count, hasMore}` (20 per page).
 * - `useUserList()`: GET /api/users/list (every user of the company, for pickers).
 * - `userCalls`: POST /api/users, PUT /api/users/{id}, DELETE /api/users/{id}; `useUserMutations()` runs them through
 *   the kit's `useCrudMutations`, updating the caches as the realtime frames do (`cache.ts`).
 */
import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";
import { useCrudMutations, useNumberedPages, type CrudCalls } from "../../ui/kit/crud.ts";
import { usersCache, usersKeys } from "./cache.ts";
import type { User, UserForm } from "./types.ts";

export const useUsersPages = (search: string) => useNumberedPages(usersCache, search, (query) => call("GET /api/users", { query }));

export function useUserList() {
  return useQuery({ queryKey: usersKeys.list(), queryFn: () => call("GET /api/users/list") });
}

export const userCalls: CrudCalls<User, UserForm> = {
  create: (form) => call("POST /api/users", { body: { ...form, password: form.password ?? "" } }),
  update: (id, form) => call("PUT /api/users/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/users/{id}", { params: { id } }),
};

export const useUserMutations = () => useCrudMutations(userCalls, usersCache);
