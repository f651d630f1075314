/**
 * The loaded Kanban boards follow the frames (docs/product/kanban.md): a ticket's update moves its card to the lanes
 * of its tags in creation order, a closed or deleted ticket leaves, a card older than a lane's loaded page waits for
 * that lane's paging, a lane renamed in place, a tag becoming a lane reloads the board.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { Session } from "../../api/session.ts";
import { dispatchRealtime } from "../../realtime/handlers.ts";
import "../registry.tsx";
import { boardKey, type Board, type Card } from "./api.ts";

const session = { token: "x.e30.y", user: { id: 7, companyId: 2, profile: "admin", super: false, queueIds: [] } } as unknown as Session;
const card = (id: number, createdAt: string, tags: { id: number; name: string; color: string }[] = [], status = "open") =>
  ({ id, uuid: `u${id}`, status, createdAt, updatedAt: createdAt, queueId: null, tags, contact: { name: `C${id}` } }) as unknown as Card;
const vip = { id: 5, name: "VIP", color: "#000" };
const lane = (id: number, tickets: Card[], hasMore = false) => ({ id, tag: id ? { id, name: id === 5 ? "VIP" : `T${id}`, color: "#000" } : null, tickets, hasMore });

function world() {
  const qc = new QueryClient();
  const ctx = { queryClient: qc, session, endSessionElsewhere: () => undefined };
  qc.setQueryData<Board>(boardKey, {
    lanes: [lane(0, [card(3, "2026-01-03"), card(1, "2026-01-01")]), lane(5, [card(9, "2026-01-09"), card(8, "2026-01-08")], true)],
    tickets: [],
  } as Board);
  const ids = () => qc.getQueryData<Board>(boardKey)!.lanes.map((l) => [l.id, l.tickets.map((t) => t.id)]);
  return { qc, ctx, ids };
}

describe("kanban boards and the frames", () => {
  it("moves a card to its tags' lane in creation order, and back to 'Em aberto' when its kanban tag goes", () => {
    const { ctx, ids } = world();
    dispatchRealtime("company-2-ticket", { action: "update", ticket: card(3, "2026-01-08T12:00", [vip]) }, ctx);
    expect(ids()).toEqual([[0, [1]], [5, [9, 3, 8]]]);
    // An agent's message on the ticket (the frame carries the message and the ticket as it now is).
    const message = { id: "3EB0KANBAN", ticketId: 3, fromMe: true, body: "ok", mediaType: "chat" };
    dispatchRealtime("company-2-appMessage", { action: "create", message, ticket: card(3, "2026-01-08T12:00", []) } as never, ctx);
    expect(ids()).toEqual([[0, [3, 1]], [5, [9, 8]]]);
  });

  it("takes closed and deleted tickets off, and leaves a card older than a paged lane's last one to that lane's paging", () => {
    const { ctx, ids } = world();
    dispatchRealtime("company-2-ticket", { action: "update", ticket: card(1, "2026-01-01", [], "closed") }, ctx);
    dispatchRealtime("company-2-ticket", { action: "delete", ticketId: 9 }, ctx);
    expect(ids()).toEqual([[0, [3]], [5, [8]]]);
    dispatchRealtime("company-2-ticket", { action: "update", ticket: card(3, "2026-01-03", [vip]) }, ctx);
    expect(ids()).toEqual([[0, []], [5, [8]]]);
  });

  it("renames a lane in place, and reloads the board when a tag becomes or stops being a lane", () => {
    const { qc, ctx, ids } = world();
    dispatchRealtime("company-2-tag", { action: "update", tag: { id: 5, name: "Cliente VIP", color: "#f00", kanban: 1 } }, ctx);
    expect(qc.getQueryData<Board>(boardKey)!.lanes[1].tag).toEqual({ id: 5, name: "Cliente VIP", color: "#f00" });
    expect(qc.getQueryState(boardKey)!.isInvalidated).toBe(false);
    dispatchRealtime("company-2-tag", { action: "update", tag: { id: 6, name: "Novo", color: "#f00", kanban: 0 } }, ctx);
    expect(qc.getQueryState(boardKey)!.isInvalidated).toBe(false);
    dispatchRealtime("company-2-tag", { action: "update", tag: { id: 6, name: "Novo", color: "#f00", kanban: 1 } }, ctx);
    expect(qc.getQueryState(boardKey)!.isInvalidated).toBe(true);
    expect(ids()).toEqual([[0, [3, 1]], [5, [9, 8]]]);
  });
});
