/**
 * Users data hooks (attendance.md §2 Users page, §7 `/users` calls) on react-query:
 * - `useUsersPages(search)`: GET /api/users?searchParam&pageNumber → pages of `{users, count, hasMore}` (20 per page).
 * - `useUserList()`: GET /api/users/list (every user of the company, for pickers).
 * - `useSaveUser()`: POST /api/users or PUT /api/users/{id}; `useDeleteUser()`: DELETE /api/users/{id}.
 * Successful writes update the caches with the same functions the realtime table uses (`cache.ts`).
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call, type BodyOf } from "../../api/operations.ts";
import { removeUser, upsertUser, usersKeys } from "./cache.ts";
import type { UserForm } from "./types.ts";

export function useUsersPages(search: string) {
  return useInfiniteQuery({
    queryKey: usersKeys.pages(search),
    queryFn: ({ pageParam }) => call("GET /api/users", { query: { searchParam: search, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last?.hasMore ? all.length + 1 : undefined),
  });
}

export function useUserList() {
  return useQuery({ queryKey: usersKeys.list(), queryFn: () => call("GET /api/users/list") });
}

export function useSaveUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id?: number; form: UserForm }) =>
      id ? call("PUT /api/users/{id}", { params: { id }, body: form }) : call("POST /api/users", { body: form as BodyOf<"POST /api/users"> }),
    onSuccess: (user) => {
      if (user && typeof user === "object" && "id" in user) upsertUser(qc, user);
      else void qc.invalidateQueries({ queryKey: usersKeys.all });
    },
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call("DELETE /api/users/{id}", { params: { id } }),
    onSuccess: (_r, id) => removeUser(qc, id),
  });
}
