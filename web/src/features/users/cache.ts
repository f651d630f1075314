/**
 * Users cache updates shared by mutations and the realtime table (`company-{id}-user` create/update/delete).
 */
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { User, UsersPage } from "./types.ts";

export const usersKeys = {
  all: ["users"] as const,
  pagesAll: ["users", "pages"] as const,
  pages: (search: string) => ["users", "pages", search] as const,
  list: () => ["users", "list"] as const,
};

function matches(user: User, search: string): boolean {
  if (!search) return true;
  const s = search.toLowerCase();
  return user.name.toLowerCase().includes(s) || user.email.toLowerCase().includes(s);
}

/** Inserts or replaces a user in every loaded users page and list (new users go first where they match the search). */
export function upsertUser(qc: QueryClient, user: User): void {
  for (const [key, data] of qc.getQueriesData<InfiniteData<UsersPage>>({ queryKey: usersKeys.pagesAll })) {
    if (!data) continue;
    const search = String(key[2] ?? "");
    const exists = data.pages.some((p) => p.users.some((u) => u.id === user.id));
    let pages: UsersPage[];
    if (exists) {
      pages = data.pages.map((p) => ({ ...p, users: p.users.map((u) => (u.id === user.id ? { ...u, ...user } : u)) }));
    } else if (matches(user, search)) {
      pages = data.pages.map((p, i) => (i === 0 ? { ...p, users: [user, ...p.users], count: p.count + 1 } : p));
    } else continue;
    qc.setQueryData<InfiniteData<UsersPage>>(key, { ...data, pages });
  }
  qc.setQueryData<User[]>(usersKeys.list(), (list) =>
    list ? (list.some((u) => u.id === user.id) ? list.map((u) => (u.id === user.id ? { ...u, ...user } : u)) : [...list, user]) : list,
  );
}

/** Removes a user from every loaded users page and list. */
export function removeUser(qc: QueryClient, userId: number): void {
  for (const [key, data] of qc.getQueriesData<InfiniteData<UsersPage>>({ queryKey: usersKeys.pagesAll })) {
    if (!data) continue;
    if (!data.pages.some((p) => p.users.some((u) => u.id === userId))) continue;
    qc.setQueryData<InfiniteData<UsersPage>>(key, {
      ...data,
      pages: data.pages.map((p) => ({ ...p, users: p.users.filter((u) => u.id !== userId), count: Math.max(0, p.count - 1) })),
    });
  }
  qc.setQueryData<User[]>(usersKeys.list(), (list) => list?.filter((u) => u.id !== userId));
}
