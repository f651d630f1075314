/** The tab's unread tickets under realtime frames: a conversation on screen never counts as unread. */
import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Ticket } from "./types.ts";
import { type UnreadTickets, unreadKey } from "./notifications/unread.ts";
import { attendanceHandlers } from "./realtime.ts";

const ticket = (over: Partial<Ticket>): Ticket =>
  ({ id: 7, uuid: "u-7", status: "open", userId: 1, queueId: null, unreadMessages: 1, updatedAt: "2026-11-28T10:00:00.000Z", isGroup: false, contact: { id: 3, name: "Cliente Dois" }, ...over }) as unknown as Ticket;

const session = { user: { id: 1, profile: "user", queueIds: [], allTicket: "disabled" } } as never;

function world(path: string) {
  vi.stubGlobal("document", { visibilityState: "visible" });
  vi.stubGlobal("location", { pathname: path, search: "" });
  const queryClient = new QueryClient();
  queryClient.setQueryData<UnreadTickets>(unreadKey, { tickets: [], more: false });
  const unread = () => queryClient.getQueryData<UnreadTickets>(unreadKey)!.tickets.map((t) => t.id);
  return { ctx: { queryClient, session } as never, unread };
}

afterEach(() => vi.unstubAllGlobals());

describe("unread tickets under realtime frames", () => {
  it("a frame still carrying the unread count of the conversation on screen (sent before its read) leaves it read", () => {
    const { ctx, unread } = world("/tickets/u-7");
    attendanceHandlers.ticket({ action: "update", ticket: ticket({ unreadMessages: 0 }) } as never, ctx);
    attendanceHandlers.ticket({ action: "update", ticket: ticket({ unreadMessages: 1 }) } as never, ctx);
    expect(unread()).toEqual([]);
  });

  it("the same frame for a conversation not on screen counts it unread", () => {
    const { ctx, unread } = world("/tickets/u-9");
    attendanceHandlers.ticket({ action: "update", ticket: ticket({ unreadMessages: 1 }) } as never, ctx);
    expect(unread()).toEqual([7]);
  });
});
