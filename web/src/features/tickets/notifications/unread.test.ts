/**
 * The top bar's unread-tickets list: which tickets a user sees in the popover, and how realtime frames keep it current
 * (new customer message adds or moves a ticket to the top, reading or assigning elsewhere removes it, deletes remove
 * it, late frames are ignored); plus the volume helpers and the browser notification of a new pending message.
 */
import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../../../api/session.ts";
import { dispatchRealtime } from "../../../realtime/handlers.ts";
import type { Viewer } from "../cache.ts";
import { normalizeVolume, notificationVolume, setNotificationVolume } from "../realtime.ts";
import type { Message, Ticket } from "../types.ts";
import "../i18n.ts";
import { isUnreadFor, unreadKey, unreadTitle, type UnreadTickets } from "./unread.ts";

const agent: Viewer = { userId: 7, admin: false, queueIds: [1], allTicket: false };

function ticket(over: Partial<Ticket> = {}): Ticket {
  return {
    id: 1, uuid: "0f8fad5b-d9cb-469f-a165-70867728950e", status: "pending", contactId: 1, queueId: 1, whatsappId: 1, userId: null,
    lastMessage: "Olá", updatedAt: "2026-11-22T10:00:00.000Z", createdAt: "2026-11-22T09:00:00.000Z", unreadMessages: 1, isGroup: false,
    contact: { id: 1, name: "Cliente", number: "5511999990000", profilePicUrl: null },
    ...over,
  } as unknown as Ticket;
}

function message(ticketId: number, over: Partial<Message> = {}): Message {
  return { id: `M${ticketId}-${Math.random()}`, ticketId, body: "Oi", fromMe: false, read: false, mediaType: "conversation", waTimestamp: "2026-11-22T10:00:00.000Z", ...over } as unknown as Message;
}

function setup(user: Partial<Session["user"]> = {}, initial: Ticket[] = []) {
  const queryClient = new QueryClient();
  const session = {
    token: "e30.e30.sig",
    user: { id: 7, companyId: 2, name: "Ana", email: "ana@x.test", profile: "user", super: false, queues: [], queueIds: [1], allTicket: "desabled", whatsappId: null, company: { id: 2, name: "E", dueDate: null, settings: [] }, ...user },
  } as Session;
  queryClient.setQueryData<UnreadTickets>(unreadKey, { tickets: initial, more: false });
  const ctx = { queryClient, session, endSessionElsewhere: vi.fn() };
  const list = () => queryClient.getQueryData<UnreadTickets>(unreadKey)!.tickets.map((t) => t.id);
  return { queryClient, ctx, list };
}

const notifications: { title: string; body?: string }[] = [];
beforeEach(() => {
  notifications.length = 0;
  const store = new Map<string, string>();
  vi.stubGlobal("localStorage", { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, String(v)), removeItem: (k: string) => store.delete(k) });
  vi.stubGlobal("window", { dispatchEvent: () => true });
  vi.stubGlobal("CustomEvent", class { constructor(public type: string, public init?: unknown) {} });
  vi.stubGlobal("document", { visibilityState: "visible" });
  vi.stubGlobal("location", { pathname: "/tickets" });
  vi.stubGlobal(
    "Notification",
    class {
      static permission = "granted";
      onclick: (() => void) | null = null;
      constructor(title: string, opts?: { body?: string }) {
        notifications.push({ title, body: opts?.body });
      }
      close() {}
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

describe("who sees a ticket in the notifications popover", () => {
  it("lists open tickets with unread messages only for the agent they are assigned to", () => {
    expect(isUnreadFor(ticket({ status: "open", userId: 7 }), agent)).toBe(true);
    expect(isUnreadFor(ticket({ status: "open", userId: 8 }), agent)).toBe(false);
    expect(isUnreadFor(ticket({ status: "open", userId: 8 }), { ...agent, admin: true })).toBe(false);
  });

  it("lists pending tickets of the user's queues, without queue only for admins and allTicket users", () => {
    expect(isUnreadFor(ticket({ queueId: 1 }), agent)).toBe(true);
    expect(isUnreadFor(ticket({ queueId: 2 }), agent)).toBe(false);
    expect(isUnreadFor(ticket({ queueId: 2 }), { ...agent, admin: true })).toBe(true);
    expect(isUnreadFor(ticket({ queueId: null }), agent)).toBe(false);
    expect(isUnreadFor(ticket({ queueId: null }), { ...agent, allTicket: true })).toBe(true);
    expect(isUnreadFor(ticket({ queueId: null }), { ...agent, admin: true })).toBe(true);
  });

  it("leaves out read tickets and closed tickets", () => {
    expect(isUnreadFor(ticket({ unreadMessages: 0 }), agent)).toBe(false);
    expect(isUnreadFor(ticket({ status: "closed", userId: 7 }), agent)).toBe(false);
  });
});

describe("the popover list follows realtime frames", () => {
  it("adds a pending ticket at the top when its customer writes, and raises a browser notification", () => {
    const older = ticket({ id: 5, uuid: "5f8fad5b-d9cb-469f-a165-70867728950e", updatedAt: "2026-11-22T09:00:00.000Z" });
    const { ctx, list } = setup({}, [older]);
    const t = ticket({ id: 9, unreadMessages: 1, updatedAt: "2026-11-22T10:05:00.000Z", contact: { id: 9, name: "Joana", number: "5511988887777" } as Ticket["contact"] });
    dispatchRealtime("company-2-appMessage", { action: "create", message: message(9, { body: "Preciso de ajuda" }), ticket: t }, ctx);
    expect(list()).toEqual([9, 5]);
    expect(notifications).toEqual([{ title: "Nova mensagem de Joana", body: "Preciso de ajuda" }]);
  });

  it("moves a listed ticket to the top with its new unread count on the next message", () => {
    const a = ticket({ id: 1, updatedAt: "2026-11-22T10:00:00.000Z" });
    const b = ticket({ id: 2, uuid: "2f8fad5b-d9cb-469f-a165-70867728950e", updatedAt: "2026-11-22T10:01:00.000Z" });
    const { ctx, list, queryClient } = setup({}, [b, a]);
    dispatchRealtime("company-2-appMessage", { action: "create", message: message(1), ticket: { ...a, unreadMessages: 2, updatedAt: "2026-11-22T10:02:00.000Z" } }, ctx);
    expect(list()).toEqual([1, 2]);
    expect(queryClient.getQueryData<UnreadTickets>(unreadKey)!.tickets[0].unreadMessages).toBe(2);
  });

  it("removes a ticket once its messages are read, and one that was deleted", () => {
    const a = ticket({ id: 1 });
    const b = ticket({ id: 2, uuid: "2f8fad5b-d9cb-469f-a165-70867728950e" });
    const { ctx, list } = setup({}, [a, b]);
    dispatchRealtime("company-2-ticket", { action: "update", ticket: { ...a, unreadMessages: 0 } }, ctx);
    expect(list()).toEqual([2]);
    dispatchRealtime("company-2-ticket", { action: "delete", ticketId: 2 }, ctx);
    expect(list()).toEqual([]);
  });

  it("removes a ticket another agent accepted, and ignores a late frame older than the listed copy", () => {
    const a = ticket({ id: 1, updatedAt: "2026-11-22T10:00:00.000Z" });
    const { ctx, list } = setup({}, [a]);
    dispatchRealtime("company-2-ticket", { action: "update", ticket: { ...a, unreadMessages: 0, updatedAt: "2026-11-22T09:00:00.000Z" } }, ctx);
    expect(list()).toEqual([1]);
    dispatchRealtime("company-2-ticket", { action: "update", ticket: { ...a, status: "open", userId: 8, updatedAt: "2026-11-22T10:03:00.000Z" } }, ctx);
    expect(list()).toEqual([]);
  });

  it("does not list another queue's pending ticket nor notify about it", () => {
    const { ctx, list } = setup();
    dispatchRealtime("company-2-appMessage", { action: "create", message: message(3), ticket: ticket({ id: 3, queueId: 2 }) }, ctx);
    expect(list()).toEqual([]);
    expect(notifications).toEqual([]);
  });

  it("ignores frames of another company", () => {
    const { ctx, list } = setup();
    dispatchRealtime("company-3-appMessage", { action: "create", message: message(4), ticket: ticket({ id: 4 }) }, ctx);
    expect(list()).toEqual([]);
  });
});

describe("notification volume", () => {
  it("stores the volume as 0..1 in steps of 0.1 under localStorage volume", () => {
    expect(notificationVolume()).toBe(1);
    expect(setNotificationVolume(0.34)).toBe(0.3);
    expect(localStorage.getItem("volume")).toBe("0.3");
    expect(notificationVolume()).toBe(0.3);
    expect(normalizeVolume(7)).toBe(1);
    expect(normalizeVolume(-1)).toBe(0);
    expect(normalizeVolume("x")).toBe(1);
  });
});

describe("the browser tab's title", () => {
  it("shows the count of tickets with unread messages before the name, and the name alone at zero", () => {
    expect(unreadTitle("Atende", 3)).toBe("(3) Atende");
    expect(unreadTitle("Atende", 0)).toBe("Atende");
    expect(unreadTitle("Atende", 120, true)).toBe("(99+) Atende");
    expect(unreadTitle("Atende", 40, true)).toBe("(40+) Atende");
  });
});
