/**
 * The loaded Kanban boards follow the frames (docs/product/kanban.md): a ticket's update moves its card to the lanes
 * of its tags in creation order, a closed or deleted ticket leaves, a card older than a lane's loaded page waits for
 * that lane's paging, a lane renamed in place, a tag becoming a lane reloads the board.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import type { Session } from "../../api/session.ts";
import { dispatchRealtime } from "../../realtime/handlers.ts";
import "../registry.tsx";
import { boardKey, loadBoard, type Board, type Card } from "./api.ts";

/** The API as the board's loading sees it: each request answered when the test says so. */
const calls: { op: string; input: unknown; answer: (v: unknown) => void; fail: (e: unknown) => void }[] = [];
vi.mock("../../api/operations.ts", () => ({
  call: (op: string, input: unknown) => new Promise((answer, fail) => calls.push({ op, input, answer, fail })),
}));
const settled = () => new Promise((r) => setTimeout(r, 0));

const session = { token: "x.e30.y", user: { id: 7, companyId: 2, profile: "admin", super: false, queueIds: [] } } as unknown as Session;
const card = (id: number, createdAt: string, tags: { id: number; name: string; color: string }[] = [], status = "open") =>
  ({ id, uuid: `u${id}`, status, createdAt, updatedAt: createdAt, queueId: null, tags, contact: { name: `C${id}` } }) as unknown as Card;
const vip = { id: 5, name: "VIP", color: "#000" };
const lane = (id: number, tickets: Card[], hasMore = false) => ({ id, tag: id ? { id, name: id === 5 ? "VIP" : `T${id}`, color: "#000" } : null, tickets, hasMore });

/** A ticket frame, as the socket delivers it. */
const applyFrame = (qc: QueryClient, c: Card) =>
  dispatchRealtime("company-2-ticket", { action: "update", ticket: c }, { queryClient: qc, session, endSessionElsewhere: () => undefined });

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

describe("loading the board lane by lane", () => {
  it("asks 'Em aberto' and the lane heads at once, shows them together, then fills each tag's lane as its own first page arrives", async () => {
    calls.length = 0;
    const qc = new QueryClient();
    const lanes = () => qc.getQueryData<Board>(boardKey)?.lanes.map((l) => [l.id, l.tickets.map((t) => t.id), !!l.loading]);
    const done = loadBoard(qc);
    await settled();
    // Both leave before either answers: no lane waits for the heads, and every page is a small first page.
    expect(calls.map((c) => [c.op, c.input])).toEqual([
      ["GET /api/ticket/kanban/{laneId}", { params: { laneId: 0 }, query: { limit: 12 } }],
      ["GET /api/tags/kanban", undefined],
    ]);
    calls[1].answer({ lista: [vip, { id: 6, name: "Fechando", color: "#0f0" }] });
    await settled();
    expect(calls.slice(2).map((c) => c.input)).toEqual([
      { params: { laneId: 5 }, query: { limit: 12 } },
      { params: { laneId: 6 }, query: { limit: 12 } },
    ]);
    expect(lanes()).toBeUndefined(); // nothing painted before "Em aberto" has its cards
    calls[0].answer({ tickets: [card(3, "2026-01-03"), card(1, "2026-01-01")], hasMore: true, nextCursor: "c0" });
    await settled();
    expect(lanes()).toEqual([[0, [3, 1], false], [5, [], true], [6, [], true]]);
    // "Fechando" answers first and shows at once; a frame moving a card into the still-loading "VIP" lane is kept.
    calls[3].answer({ tickets: [card(7, "2026-01-07", [{ id: 6, name: "Fechando", color: "#0f0" }])], hasMore: false });
    await settled();
    expect(lanes()).toEqual([[0, [3, 1], false], [5, [], true], [6, [7], false]]);
    applyFrame(qc, card(4, "2026-01-04", [vip]));
    calls[2].answer({ tickets: [card(9, "2026-01-09", [vip]), card(2, "2026-01-02", [vip])], hasMore: false });
    const board = await done;
    expect(board.lanes.map((l) => [l.id, l.tickets.map((t) => t.id), !!l.loading])).toEqual([[0, [3, 1], false], [5, [9, 4, 2], false], [6, [7], false]]);
    expect(board.lanes[0].nextCursor).toBe("c0");
  });

  it("a failing lane fails the load (the page shows the error and a retry)", async () => {
    calls.length = 0;
    const qc = new QueryClient();
    const done = loadBoard(qc);
    await settled();
    calls[1].answer({ lista: [vip] });
    calls[0].answer({ tickets: [], hasMore: false });
    await settled();
    calls[2].fail(new Error("ERR_INTERNAL"));
    await expect(done).rejects.toThrow("ERR_INTERNAL");
  });
});
