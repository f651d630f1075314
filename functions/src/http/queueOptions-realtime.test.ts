/**
 * Realtime of the option tree (live for other admins): every option change through the real handlers
 * sends `company-{id}-queueOption` with the queue's whole tree as it now is (siblings renumbered) to the company's
 * admins only: not to its agents, not to another company. The `company-{id}-queue` frames stay as they were.
 */
import { describe, expect, it } from "vitest";
import { api, makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";

const w = companyWorld();

type Node = { id: number; option: string; title: string; children: Node[] };
const shape = (nodes: Node[]): unknown[] => nodes.map((n) => ({ option: n.option, title: n.title, children: shape(n.children) }));

describe("company-{id}-queueOption frames", () => {
  it("tell the company's admins each create, change, move and delete with the queue's whole tree, and nobody else", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const other = await w.fresh();
    const q = (await api("POST", "/api/queue", { token: admin.token, body: { name: "Suporte", color: "#1e88e5" } })).body as { id: number };
    const agent = await makeUser(companyId, { queueIds: [q.id] });
    const adminSock = await registerSocket(companyId, { id: admin.id, profile: "admin" });
    await registerSocket(companyId, { id: agent.id, profile: "user", queueIds: [q.id] });
    await registerSocket(other.cid, { id: other.admin.id, profile: "admin" });
    const event = `company-${companyId}-queueOption`;
    const optionFrames = () => w.capture.frames.filter((f) => f.event.endsWith("-queueOption"));

    w.capture.clear();
    const a = (await api("POST", "/api/queue-options", { token: admin.token, body: { queueId: q.id, title: "Financeiro", message: "Escolha:" } })).body as Node;
    expect(optionFrames()).toEqual([
      {
        connectionId: adminSock,
        event,
        data: { action: "create", queueId: q.id, option: expect.objectContaining({ id: a.id, title: "Financeiro", option: "1" }), options: [expect.objectContaining({ id: a.id, children: [] })] },
      },
    ]);

    const b = (await api("POST", "/api/queue-options", { token: admin.token, body: { queueId: q.id, title: "Técnico" } })).body as Node;
    await api("POST", "/api/queue-options", { token: admin.token, body: { queueId: q.id, parentId: a.id, title: "Boleto" } });
    w.capture.clear();
    // A move renumbers the siblings: the frame carries the whole new order.
    expect((await api("PUT", `/api/queue-options/${b.id}`, { token: admin.token, body: { option: "1", title: "Suporte técnico" } })).status).toBe(200);
    const moved = optionFrames();
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ connectionId: adminSock, event, data: { action: "update", queueId: q.id, option: { id: b.id, option: "1", title: "Suporte técnico" } } });
    expect(shape(moved[0].data.options)).toEqual([
      { option: "1", title: "Suporte técnico", children: [] },
      { option: "2", title: "Financeiro", children: [{ option: "1", title: "Boleto", children: [] }] },
    ]);

    w.capture.clear();
    expect((await api("DELETE", `/api/queue-options/${a.id}`, { token: admin.token })).status).toBe(200);
    const deleted = optionFrames();
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ connectionId: adminSock, event, data: { action: "delete", queueId: q.id, optionId: a.id } });
    expect(shape(deleted[0].data.options)).toEqual([{ option: "1", title: "Suporte técnico", children: [] }]);

    // A refused change sends nothing; the queue's own frames are unchanged.
    w.capture.clear();
    expect((await api("PUT", `/api/queue-options/${b.id}`, { token: other.admin.token, body: { title: "Invasor" } })).status).toBe(404);
    expect(optionFrames()).toEqual([]);
    const renamed = await api("PUT", `/api/queue/${q.id}`, { token: admin.token, body: { name: "Atendimento" } });
    expect(w.capture.frames.filter((f) => f.connectionId === adminSock)).toEqual([{ connectionId: adminSock, event: `company-${companyId}-queue`, data: { action: "update", queue: renamed.body } }]);
  });
});
