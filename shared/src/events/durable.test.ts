/**
 * Durable listeners (`./durable.ts`): a listener carrying a rule whose write fails once loses nothing: the minute
 * tick's re-drive applies it later, once; an old event re-driven after newer ones never writes stale data back. A
 * process killed right after a fact's transaction committed (before any other write) loses nothing either: the
 * pending run was part of that transaction.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { handleBaileysEvent } from "../ingest/index.ts";
import { storedState } from "../ingest/testkit.ts";
import { updateQueue } from "../queues/service.ts";
import { updateTicketByUser } from "../tickets/actions.ts";
import { makeQueue, makeTicket, makeWhatsapp } from "../tickets/fixtures.testkit.ts";
import { getTicketItem } from "../tickets/repository.ts";
import type { TicketActor } from "../tickets/service.ts";
import { getTimer } from "../timers/index.ts";
import { EXPIRES_TICKET, TIME_TO_TRANSFER } from "../timers/kinds.ts";
import { updateSessionState } from "../whatsapp/service.ts";
import { redriveDurable, RUN_GRACE_MS } from "./durable.ts";
import { dieAfterCommit } from "./durable.testkit.ts";
import { settleDeferred } from "./index.ts";

const w = companyWorld();

const MIN = 60_000;
const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * MIN).toISOString();
/** The tick of a minute after the grace (the listener's own run is over by then). */
const tick = () => redriveDurable(Date.now() + RUN_GRACE_MS + 1_000);

type Cmd = { constructor: { name: string }; input: Record<string, unknown> };
/** Fails the first DynamoDB command `match` accepts (a write that fails once); returns how many it failed. */
function failOnce(match: (cmd: Cmd) => boolean): { failed: () => number } {
  const client = ddb();
  const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
  let failed = 0;
  vi.spyOn(client, "send").mockImplementation(((cmd: Cmd, ...rest: unknown[]) => {
    if (!failed && match(cmd)) {
      failed++;
      return Promise.reject(Object.assign(new Error("write failed (test)"), { name: "InternalServerError" }));
    }
    return send(cmd, ...rest);
  }) as never);
  return { failed: () => failed };
}
/** A transaction writing the item with key `key` (an Update or a Put of it). */
const writes = (key: { PK: string; SK: string }) => (items: Record<string, Record<string, unknown>>[]) =>
  items.some((it) => {
    const k = (it.Update?.Key ?? it.Put?.Item) as { PK?: string; SK?: string } | undefined;
    return k?.PK === key.PK && k?.SK === key.SK;
  });

const isTimerPut = (cid: number) => (c: Cmd) => c.constructor.name === "PutCommand" && String((c.input.Item as { PK?: string })?.PK).startsWith(`C#${cid}#TIMER#`);

afterEach(async () => {
  await settleDeferred();
  vi.restoreAllMocks();
});

describe("durable listeners", { timeout: 120_000 }, () => {
  it("ticket timers: an accept whose expiresTicket write failed gets its timer from the tick, once", async () => {
    const { cid, admin } = await w.fresh();
    const wa = await makeWhatsapp(cid, { name: "Loja" });
    await api("PUT", `/api/whatsapp/${wa.id}`, { token: admin.token, body: { expiresTicket: 30 } });
    const t = await makeTicket(cid, { whatsappId: wa.id });
    const agent: TicketActor = { userId: admin.id, companyId: cid, profile: "admin", name: "Ana", queueIds: [], allTicket: "desabled" };

    const fault = failOnce(isTimerPut(cid));
    await updateTicketByUser(agent, t.id, { status: "open" });
    expect(fault.failed()).toBe(1);
    expect(await getTimer(cid, EXPIRES_TICKET, t.id)).toBeNull();

    expect(await tick()).toBeGreaterThanOrEqual(1);
    const accepted = (await getTicketItem(cid, t.id, true))!;
    expect((await getTimer(cid, EXPIRES_TICKET, t.id))?.dueAt).toBe(at(accepted.updatedAt, 30));
    // Applied: the next tick has nothing of it left.
    expect(await tick()).toBe(0);
  });

  it("connection timers: an admin's edit whose timer write failed moves the open tickets' timers at the tick", async () => {
    const { cid, admin } = await w.fresh();
    const wa = await makeWhatsapp(cid, { name: "Loja" });
    const open = await makeTicket(cid, { whatsappId: wa.id, status: "open", userId: admin.id });

    const fault = failOnce(isTimerPut(cid));
    const res = await api("PUT", `/api/whatsapp/${wa.id}`, { token: admin.token, body: { expiresTicket: 45 } });
    expect(res.status).toBe(200);
    expect(fault.failed()).toBe(1);
    expect(await getTimer(cid, EXPIRES_TICKET, open.id)).toBeNull();

    await tick();
    expect((await getTimer(cid, EXPIRES_TICKET, open.id))?.dueAt).toBe(at(open.updatedAt, 45));
  });

  it("ticket summaries: a queue rename whose summary write failed reaches the ticket at the tick; an older rename replayed later does not win", async () => {
    const { cid, admin } = await w.fresh();
    const auth = { userId: admin.id, companyId: cid, profile: "admin", super: false, name: "Admin", email: "a@test", queueIds: [], allTicket: "desabled", whatsappId: null, tokenVersion: 0 } as AuthContext;
    const wa = await makeWhatsapp(cid);
    const q = await makeQueue(cid, { name: "Vendas", color: "#2e7d32" });
    const t = await makeTicket(cid, { whatsappId: wa.id, status: "open", queueId: q.id, userId: admin.id });
    const stored = async () => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.ticket(cid, t.id), ConsistentRead: true }))).Item?.sumQueue;
    const isSummaryWrite = (c: Cmd) => c.constructor.name === "UpdateCommand" && (c.input.ExpressionAttributeNames as Record<string, string> | undefined)?.["#p"] === "sumQueue";

    const fault = failOnce(isSummaryWrite);
    await updateQueue(auth, q.id, { name: "Comercial", color: "#1565c0" });
    expect(fault.failed()).toBe(1);
    expect(await stored()).toMatchObject({ name: "Vendas" });

    // A newer rename applies at once; the failed older run, re-driven after it, writes the queue as it is now.
    await updateQueue(auth, q.id, { name: "Atendimento", color: "#6a1b9a" });
    expect(await stored()).toMatchObject({ name: "Atendimento" });
    await tick();
    expect(await stored()).toEqual({ id: q.id, name: "Atendimento", color: "#6a1b9a" });
  });

  describe("a process killed right after the fact's transaction", () => {
    it("a new customer's first message: the new ticket's timeToTransfer arrives at the tick", async () => {
      const { cid, admin } = await w.fresh();
      const wa = await makeWhatsapp(cid, { name: "Loja" });
      const q = await makeQueue(cid, { name: "Triagem", color: "#00897b" });
      await api("PUT", `/api/whatsapp/${wa.id}`, { token: admin.token, body: { timeToTransfer: 10, transferQueueId: q.id } });

      // The ticket's creation commits, then the process dies (the message itself is redelivered later by WhatsApp).
      const kill = dieAfterCommit((items) => items.some((it) => it.Put?.Item && (it.Put.Item as { _type?: string })._type === "ticket"));
      const message = { key: { remoteJid: "5511955557001@s.whatsapp.net", fromMe: false, id: "3EB0DURABLEKILL01" }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: "Ana", message: { conversation: "oi" } };
      await handleBaileysEvent({ companyId: cid, whatsappId: wa.id }, "messages.upsert", { type: "notify", messages: [message] }).catch(() => undefined);
      await settleDeferred();
      expect(kill.died()).toBe(true);
      vi.restoreAllMocks();
      const [ticket] = (await storedState(cid)).tickets;
      expect(ticket).toMatchObject({ status: "pending", queueId: null });
      expect(await getTimer(cid, TIME_TO_TRANSFER, ticket.id)).toBeNull();

      await tick();
      expect((await getTimer(cid, TIME_TO_TRANSFER, ticket.id))?.dueAt).toBe(at(ticket.createdAt, 10));
    });

    it("an agent's accept: the expiresTicket timer arrives at the tick", async () => {
      const { cid, admin } = await w.fresh();
      const wa = await makeWhatsapp(cid, { name: "Loja" });
      await api("PUT", `/api/whatsapp/${wa.id}`, { token: admin.token, body: { expiresTicket: 30 } });
      const t = await makeTicket(cid, { whatsappId: wa.id });
      const agent: TicketActor = { userId: admin.id, companyId: cid, profile: "admin", name: "Ana", queueIds: [], allTicket: "desabled" };

      const kill = dieAfterCommit(writes(keys.ticket(cid, t.id)));
      await updateTicketByUser(agent, t.id, { status: "open" }).catch(() => undefined);
      await settleDeferred();
      expect(kill.died()).toBe(true);
      vi.restoreAllMocks();
      const accepted = (await getTicketItem(cid, t.id, true))!;
      expect(accepted.status).toBe("open");
      expect(await getTimer(cid, EXPIRES_TICKET, t.id)).toBeNull();

      await tick();
      expect((await getTimer(cid, EXPIRES_TICKET, t.id))?.dueAt).toBe(at(accepted.updatedAt, 30));
    });

    it("a queue rename and a connection's status: the tickets' rows show them after the tick", async () => {
      const { cid, admin } = await w.fresh();
      const auth = { userId: admin.id, companyId: cid, profile: "admin", super: false, name: "Admin", email: "a@test", queueIds: [], allTicket: "desabled", whatsappId: null, tokenVersion: 0 } as AuthContext;
      const wa = await makeWhatsapp(cid, { name: "Loja" });
      const q = await makeQueue(cid, { name: "Vendas", color: "#2e7d32" });
      const t = await makeTicket(cid, { whatsappId: wa.id, status: "open", queueId: q.id, userId: admin.id });
      const row = async () => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.ticket(cid, t.id), ConsistentRead: true }))).Item;

      let kill = dieAfterCommit(writes(keys.queue(cid, q.id)));
      await updateQueue(auth, q.id, { name: "Comercial", color: "#1565c0" }).catch(() => undefined);
      expect(kill.died()).toBe(true);
      vi.restoreAllMocks();
      kill = dieAfterCommit(writes(keys.whatsapp(cid, wa.id)));
      await updateSessionState(cid, wa.id, { status: "DISCONNECTED" }).catch(() => undefined);
      expect(kill.died()).toBe(true);
      vi.restoreAllMocks();
      expect((await row())?.sumQueue).toMatchObject({ name: "Vendas" });
      expect((await row())?.sumWhatsapp).toMatchObject({ status: "CONNECTED" });

      await tick();
      expect((await row())?.sumQueue).toEqual({ id: q.id, name: "Comercial", color: "#1565c0" });
      expect((await row())?.sumWhatsapp).toEqual({ id: wa.id, name: "Loja", status: "DISCONNECTED" });
    });
  });
});
