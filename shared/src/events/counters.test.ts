/**
 * Proof against DynamoDB Local that the daily counters are exact (never lost, never counted twice) when the process dies between the domain write
 * and the counters listener (the minute tick re-drives the outbox), when the same inbound message is delivered three
 * times, when the listener and the tick apply the same item at once, and under a burst on the hot day item; a
 * customer's messages are counted exactly on their ticket (no day item per inbound message).
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { readDailyCounters, type DailyCounter } from "../db/counters.ts";
import { ddb, tableName } from "../db/client.ts";
import { dueShardsToRead, keys } from "../db/keys.ts";
import { handleBaileysEvent, type IngestContext } from "../ingest/index.ts";
import { updateTicketByUser } from "../tickets/actions.ts";
import { getTicket, type TicketActor } from "../tickets/service.ts";
import { countersListener } from "./counters.ts";
import { settleDeferred } from "./index.ts";
import { addListener } from "./registry.ts";
import { applyOutbox, counterFacts, localDayHour, OUTBOX_GRACE_MS, outboxDuePages, redriveOutbox } from "./outbox.ts";
import { DEFAULT_TIME_ZONE } from "../automation/variables.ts";
import { companyWorld } from "../../../test/world.ts";

// A fact counts only for a company that exists (and is not being deleted): each test takes a company of its own.
const w = companyWorld();
const freshCompanyId = async () => (await w.fresh()).cid;

afterEach(async () => {
  await settleDeferred();
  addListener(countersListener);
});

/** The counters listener of a process that dies right after the domain write. */
const dyingProcess = () => addListener({ name: "counters", handle: async () => { throw new Error("process killed"); } });

const text = (jid: string, id: string, body: string) => ({ key: { fromMe: false, remoteJid: jid, id }, message: { conversation: body }, messageTimestamp: 1767366759, pushName: "Maria" });
const upsert = (ctx: IngestContext, messages: unknown[]) => handleBaileysEvent(ctx, "messages.upsert", { messages, type: "notify" });

/**
 * A new customer's first text (`3EB0CNT000000000000<n>`), stored by a process that dies before its counters listener
 * (three outbox items left: contact, ticket, message); the next process's listener is back in place. Returns its context.
 */
async function storedByDyingProcess(n: string): Promise<IngestContext> {
  const ctx: IngestContext = { companyId: await freshCompanyId(), whatsappId: 3 };
  dyingProcess();
  await upsert(ctx, [text(`551191234900${n}@s.whatsapp.net`, `3EB0CNT000000000000${n}`, "oi")]);
  addListener(countersListener);
  return ctx;
}

/** The company's (or a user's) counters summed over the local days this test ran in. */
async function counters(companyId: number, days: string[], userId?: number): Promise<Record<DailyCounter, number>> {
  await settleDeferred();
  const all = await Promise.all([...new Set(days)].map((d) => readDailyCounters(companyId, d, userId)));
  return all.reduce((acc, c) => Object.fromEntries(Object.keys(c).map((k) => [k, (acc[k as DailyCounter] ?? 0) + c[k as DailyCounter]])) as Record<DailyCounter, number>);
}
/** Today in the zone of the test's companies (the default zone): counters go to the company's local day, not UTC's. */
const today = () => localDayHour(new Date().toISOString(), DEFAULT_TIME_ZONE).day;

/**
 * The company's outbox items still waiting (every shard, the due hours around now), the hand-overs of customers'
 * messages aside (due after the local day: `messages-in.test.ts`).
 */
async function outboxLeft(companyId: number): Promise<number> {
  await settleDeferred();
  let n = 0;
  for (let shard = 0; shard < dueShardsToRead("outbox"); shard++) {
    for (const t of [Date.now() - 3_600_000, Date.now(), Date.now() + 3_600_000]) {
      const hour = new Date(t).toISOString().slice(0, 13);
      for await (const entries of outboxDuePages(shard, hour, hour, "9999")) n += entries.filter((e) => e.companyId === companyId && !e.messagesInDay).length;
    }
  }
  return n;
}

describe("daily counters", () => {
  it("counts a message delivered three times concurrently once (message, new ticket, new contact)", async () => {
    const days = [today()];
    const ctx: IngestContext = { companyId: await freshCompanyId(), whatsappId: 3 };
    const m = text("5511912349001@s.whatsapp.net", "3EB0CNT0000000000001", "oi");
    await Promise.all([upsert(ctx, [m]), upsert(ctx, [m]), upsert(ctx, [m])]);
    await redriveOutbox(Date.now() + OUTBOX_GRACE_MS + 1000); // even a re-drive after the fact adds nothing
    days.push(today());
    expect(await counters(ctx.companyId, days)).toMatchObject({ ticketsOpened: 1, contactsCreated: 1, messagesOut: 0 });
    expect(await getTicket(ctx.companyId, await getTicketIdOf(ctx.companyId))).toMatchObject({ messagesIn: 1, messagesOut: 0, unreadMessages: 1 });
    expect(await outboxLeft(ctx.companyId)).toBe(0);
  });

  it("loses nothing when the process dies between the write and the listener: the tick re-drives each item once", async () => {
    const days = [today()];
    const ctx: IngestContext = { companyId: await freshCompanyId(), whatsappId: 3 };
    const agent: TicketActor = { userId: 7, companyId: ctx.companyId, profile: "admin", name: "Ana", queueIds: [], allTicket: "desabled" };

    dyingProcess();
    await upsert(ctx, [text("5511912349002@s.whatsapp.net", "3EB0CNT0000000000002", "bom dia")]);
    const ticketId = await getTicketIdOf(ctx.companyId);
    await updateTicketByUser(agent, ticketId, { status: "open" }); // accept
    await updateTicketByUser(agent, ticketId, { status: "closed", justClose: true }); // close
    // The writes happened; the counts did not.
    expect(await getTicket(ctx.companyId, ticketId)).toMatchObject({ status: "closed", userId: 7 });
    expect(await counters(ctx.companyId, days)).toMatchObject({ ticketsOpened: 0, ticketsAccepted: 0, ticketsClosed: 0, contactsCreated: 0 });
    expect(await outboxLeft(ctx.companyId)).toBe(4);

    addListener(countersListener); // a new process
    await redriveOutbox(Date.now() - 5000); // not due yet: the listener of a live process may still be at it
    expect((await counters(ctx.companyId, days)).ticketsOpened).toBe(0);

    await redriveOutbox(Date.now() + OUTBOX_GRACE_MS + 1000); // the minute tick
    await redriveOutbox(Date.now() + OUTBOX_GRACE_MS + 2000); // and the next one
    // The same message delivered again later changes nothing either.
    await upsert(ctx, [text("5511912349002@s.whatsapp.net", "3EB0CNT0000000000002", "bom dia")]);
    days.push(today());
    expect(await counters(ctx.companyId, days)).toMatchObject({ ticketsOpened: 1, ticketsAccepted: 1, ticketsClosed: 1, contactsCreated: 1 });
    expect((await getTicket(ctx.companyId, ticketId))?.messagesIn).toBe(1);
    expect(await counters(ctx.companyId, days, 7)).toMatchObject({ ticketsAccepted: 1, ticketsClosed: 1 });
    expect(await outboxLeft(ctx.companyId)).toBe(0);
  });

  it("applies an item once when the listener and the tick race on it", async () => {
    const days = [today()];
    const ctx = await storedByDyingProcess("3");
    const ticket = (await getTicket(ctx.companyId, await getTicketIdOf(ctx.companyId)))!;
    const entry = counterFacts.ticket(null, ticket)!;
    const results = await Promise.all([applyOutbox(entry), applyOutbox(entry), redriveOutbox(Date.now() + OUTBOX_GRACE_MS + 1000)]);
    days.push(today());
    // At most one of the two listeners counted it (the tick may have been first); the day counts it once.
    expect(results.slice(0, 2).filter((r) => r === "applied").length).toBeLessThanOrEqual(1);
    expect(results.slice(0, 2)).toContain("done");
    expect(await counters(ctx.companyId, days)).toMatchObject({ ticketsOpened: 1, contactsCreated: 1 });
  });

  it("keeps a fact whose apply fails for the next tick, which finds it even after hours without ticks", async () => {
    const days = [today()];
    const ctx = await storedByDyingProcess("4");
    const now = Date.now();
    // The tick's transactions fail (DynamoDB 5xx after the SDK's retries): every item stays where it was written.
    ddb().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "TransactWriteItemsCommand") throw Object.assign(new Error("We encountered an internal error"), { name: "InternalServerError" });
        return next(args);
      },
      { step: "initialize", name: "fail-outbox-apply" },
    );
    try {
      expect(await redriveOutbox(now + OUTBOX_GRACE_MS + 1000)).toBe(0);
    } finally {
      ddb().middlewareStack.remove("fail-outbox-apply");
    }
    expect(await counters(ctx.companyId, days)).toMatchObject({ ticketsOpened: 0, contactsCreated: 0 });
    expect(await outboxLeft(ctx.companyId)).toBe(2);
    // No tick for three hours; the first one back walks from where the last one stopped: this company's two facts, and
    // whatever else is due by then (when the local day ended meanwhile, a run between 00:00 and 03:00 UTC, the day's
    // hand-overs of customers' messages of every company so far), each once.
    const later = now + 3 * 60 * 60_000;
    expect(await redriveOutbox(later)).toBeGreaterThanOrEqual(2);
    expect(await redriveOutbox(later + 60_000)).toBe(0);
    days.push(today());
    expect(await counters(ctx.companyId, days)).toMatchObject({ ticketsOpened: 1, contactsCreated: 1 });
    expect(await outboxLeft(ctx.companyId)).toBe(0);
  });

  it("counts a burst of 30 messages from 15 customers exactly, conflicts on the hot day item included", { timeout: 120_000 }, async () => {
    const days = [today()];
    const ctx: IngestContext = { companyId: await freshCompanyId(), whatsappId: 3 };
    const burst = Array.from({ length: 30 }, (_, i) => text(`55119123${String(5000 + (i % 15))}@s.whatsapp.net`, `3EB0BURST${String(i).padStart(11, "0")}`, `msg ${i}`));
    await Promise.all(burst.map((m) => upsert(ctx, [m])));
    await redriveOutbox(Date.now() + OUTBOX_GRACE_MS + 1000); // whatever kept conflicting
    days.push(today());
    expect(await counters(ctx.companyId, days)).toMatchObject({ ticketsOpened: 15, contactsCreated: 15 });
    // Each customer's two messages on their ticket, counted by the message's own write.
    const tickets = await Promise.all((await ticketIdsOf(ctx.companyId)).map((id) => getTicket(ctx.companyId, id)));
    expect(tickets.map((t) => t?.messagesIn)).toEqual(Array(15).fill(2));
    expect(await outboxLeft(ctx.companyId)).toBe(0);
  });
});

async function getTicketIdOf(companyId: number): Promise<number> {
  return (await ticketIdsOf(companyId))[0];
}

async function ticketIdsOf(companyId: number): Promise<number[]> {
  const out = await ddb().send(
    new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": keys.ticketStatusPK(companyId, "pending") } }),
  );
  return (out.Items ?? []).map((it) => Number(it.id));
}
