/** The realtime event table and socket helpers: which frames change which cache, and the single-login rule. */
import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import type { Session } from "../api/session.ts";
import { tokenVersionOf } from "../api/session.ts";
import { contactsKeys, type Contact } from "../features/contacts/api.ts";
import { queuesKeys } from "../features/queues/cache.ts";
import type { Queue } from "../features/queues/types.ts";
import { usersKeys } from "../features/users/cache.ts";
import type { UsersPage } from "../features/users/types.ts";
import { dispatchRealtime, parseEventName } from "./handlers.ts";
import { backoffDelay } from "./socket.ts";

const jwt = (claims: object) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")}.sig`;

function setup(tv = 3) {
  const queryClient = new QueryClient();
  const session = {
    token: jwt({ sub: "7", cid: 2, tv }),
    user: { id: 7, companyId: 2, name: "Ana", email: "ana@x.test", profile: "admin", super: false, queues: [], queueIds: [], allTicket: "desabled", whatsappId: null, company: { id: 2, name: "E", dueDate: null, settings: [] } },
  } as Session;
  const endSessionElsewhere = vi.fn();
  const ctx = { queryClient, session, endSessionElsewhere };
  return { queryClient, session, endSessionElsewhere, ctx };
}

// Pages hold only the fields these checks read.
const page = (users: Partial<UsersPage["users"][number]>[]) => ({ pages: [{ users, count: users.length, hasMore: false }], pageParams: [1] }) as unknown as InfiniteData<UsersPage>;

describe("realtime event table", () => {
  it("ends the session when another login of the same user has a newer token version", () => {
    const { ctx, endSessionElsewhere } = setup(3);
    dispatchRealtime("company-2-auth", { action: "update", user: { id: 7 }, tokenVersion: 4 }, ctx);
    expect(endSessionElsewhere).toHaveBeenCalledTimes(1);
  });

  it("keeps the session for its own login, another user's login or another company's event", () => {
    const { ctx, endSessionElsewhere } = setup(3);
    dispatchRealtime("company-2-auth", { action: "update", user: { id: 7 }, tokenVersion: 3 }, ctx);
    dispatchRealtime("company-2-auth", { action: "update", user: { id: 8 }, tokenVersion: 9 }, ctx);
    dispatchRealtime("company-5-auth", { action: "update", user: { id: 7 }, tokenVersion: 9 }, ctx);
    expect(endSessionElsewhere).not.toHaveBeenCalled();
  });

  it("adds, updates and removes users in the loaded users pages", () => {
    const { ctx, queryClient } = setup();
    queryClient.setQueryData(usersKeys.pages(""), page([{ id: 1, companyId: 2, name: "Old", email: "o@x.test", profile: "user" }]));
    dispatchRealtime("company-2-user", { action: "create", user: { id: 2, companyId: 2, name: "New", email: "n@x.test", profile: "user" } }, ctx);
    dispatchRealtime("company-2-user", { action: "update", user: { id: 1, companyId: 2, name: "Renamed", email: "o@x.test", profile: "admin" } }, ctx);
    let data = queryClient.getQueryData<InfiniteData<UsersPage>>(usersKeys.pages(""))!;
    expect(data.pages[0].users.map((u) => [u.id, u.name])).toEqual([
      [2, "New"],
      [1, "Renamed"],
    ]);
    dispatchRealtime("company-2-user", { action: "delete", userId: 2 }, ctx);
    data = queryClient.getQueryData<InfiniteData<UsersPage>>(usersKeys.pages(""))!;
    expect(data.pages[0].users.map((u) => u.id)).toEqual([1]);
  });

  it("does not add a created user to a search it does not match", () => {
    const { ctx, queryClient } = setup();
    queryClient.setQueryData(usersKeys.pages("mar"), page([]));
    dispatchRealtime("company-2-user", { action: "create", user: { id: 3, companyId: 2, name: "Zé", email: "z@x.test", profile: "user" } }, ctx);
    expect(queryClient.getQueryData<InfiniteData<UsersPage>>(usersKeys.pages("mar"))!.pages[0].users).toEqual([]);
  });

  it("adds, updates and removes queues in the loaded list", () => {
    const { ctx, queryClient } = setup();
    queryClient.setQueryData<Queue[]>(queuesKeys.all, [{ id: 1, name: "A", color: "#111" }]);
    dispatchRealtime("company-2-queue", { action: "create", queue: { id: 2, name: "B", color: "#222" } }, ctx);
    dispatchRealtime("company-2-queue", { action: "update", queue: { id: 1, name: "A2", color: "#111" } }, ctx);
    expect(queryClient.getQueryData<Queue[]>(queuesKeys.all)!.map((q) => q.name)).toEqual(["A2", "B"]);
    dispatchRealtime("company-2-queue", { action: "delete", queueId: 1 }, ctx);
    expect(queryClient.getQueryData<Queue[]>(queuesKeys.all)!.map((q) => q.id)).toEqual([2]);
  });

  it("keeps the contact drawer's contact current: a contact update replaces it, an older one does not, a delete drops it", () => {
    const { ctx, queryClient } = setup();
    const ana = { id: 5, companyId: 2, name: "Ana", number: "5511999990000", updatedAt: "2026-01-01T10:00:00.000Z" } as Contact;
    queryClient.setQueryData<Contact>(contactsKeys.one(5), ana);
    dispatchRealtime("company-2-contact", { action: "update", contact: { ...ana, name: "Ana Souza", updatedAt: "2026-01-01T10:05:00.000Z" } }, ctx);
    expect(queryClient.getQueryData<Contact>(contactsKeys.one(5))?.name).toBe("Ana Souza");
    dispatchRealtime("company-2-contact", { action: "update", contact: { ...ana, name: "Ana (old)", updatedAt: "2026-01-01T09:00:00.000Z" } }, ctx);
    expect(queryClient.getQueryData<Contact>(contactsKeys.one(5))?.name).toBe("Ana Souza");
    dispatchRealtime("company-2-contact", { action: "delete", contactId: 5 }, ctx);
    expect(queryClient.getQueryData<Contact>(contactsKeys.one(5))).toBeUndefined();
  });

  it("ignores other companies' frames and unknown events", () => {
    const { ctx, queryClient } = setup();
    queryClient.setQueryData<Queue[]>(queuesKeys.all, []);
    dispatchRealtime("company-3-queue", { action: "create", queue: { id: 9, name: "X", color: "#999" } }, ctx);
    dispatchRealtime("company-2-nothing", { action: "create" }, ctx);
    expect(queryClient.getQueryData<Queue[]>(queuesKeys.all)).toEqual([]);
  });
});

describe("realtime helpers", () => {
  it("parses company event names", () => {
    expect(parseEventName("company-12-appMessage")).toEqual({ companyId: 12, name: "appMessage" });
    expect(parseEventName("other")).toBeNull();
  });

  it("reads the token version claim of an access token", () => {
    expect(tokenVersionOf(jwt({ tv: 5 }))).toBe(5);
    expect(tokenVersionOf("garbage")).toBe(-1);
    expect(tokenVersionOf(null)).toBe(-1);
  });

  it("backs off exponentially with jitter up to 30 s", () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(0, () => 0.999)).toBeLessThanOrEqual(1000);
    expect(backoffDelay(3, () => 0)).toBe(4000);
    expect(backoffDelay(20, () => 0.999)).toBeLessThanOrEqual(30_000);
    expect(backoffDelay(20, () => 0)).toBe(15_000);
  });
});
