/**
 * Customers' messages per local day (docs/product/dashboard.md#customers-messages), against DynamoDB Local: today's
 * figure is current as messages arrive (the live count), and the day's end hands the exact count over from the
 * tickets, whatever the live count missed. A message delivered three times counts once, two at once count two, a
 * message at 23:59 and one at 00:01 in São Paulo count on their own days, and an attendant counts the messages of
 * the tickets they had. A deleted ticket's hand-over of a day of a sealed month invalidates that month's and week's
 * roll-ups.
 */
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lastDayOf, mondayOf, readDailyCounters, userCounter } from "../db/counters.ts";
import { ddb, tableName } from "../db/client.ts";
import { dueShardsToRead, keys } from "../db/keys.ts";
import { handleBaileysEvent, type IngestContext } from "../ingest/index.ts";
import { clearIngestCaches } from "../ingest/store.ts";
import { getTicketItem } from "../tickets/repository.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { ingestMessage } from "../messages/repository.ts";
import { makeTicket } from "../tickets/fixtures.testkit.ts";
import { deleteTicketByAdmin, updateTicketByUser } from "../tickets/actions.ts";
import type { TicketActor } from "../tickets/service.ts";
import { countersListener } from "./counters.ts";
import { settleDeferred } from "./index.ts";
import { addListener } from "./registry.ts";
import { MESSAGES_IN_GRACE_MS, outboxDuePages, redriveOutbox } from "./outbox.ts";
import { companyWorld } from "../../../test/world.ts";

const w = companyWorld();

afterEach(async () => {
  vi.useRealTimers();
  await settleDeferred();
  addListener(countersListener);
});

const text = (jid: string, id: string, body: string) => ({ key: { fromMe: false, remoteJid: jid, id }, message: { conversation: body }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: "Maria" });
const upsert = (ctx: IngestContext, messages: unknown[]) => handleBaileysEvent(ctx, "messages.upsert", { messages, type: "notify" });
const newCompany = async (): Promise<IngestContext> => ({ companyId: (await w.fresh()).cid, whatsappId: 3 });
/** The local day (São Paulo, the companies' zone) of instant `ms`. */
const spDay = (ms = Date.now()) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date(ms));
/** The end of São Paulo's day `day` (UTC-3 all year). */
const endOf = (day: string) => Date.parse(`${day}T00:00:00-03:00`) + 86_400_000;

/** The stored day item's two counts (the company's, or attendant `userId`'s): the live one and the one the day's end handed over. */
async function stored(companyId: number, day: string, userId?: number) {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.stats(companyId, day), ConsistentRead: true }));
  const prefix = userId != null ? userCounter(userId, "") : "";
  return { live: Number(out.Item?.[`${prefix}messagesInLive`] ?? 0), handedOver: Number(out.Item?.[`${prefix}messagesIn`] ?? 0) };
}

/** The minute tick at instant `ms`, walking its last ten minutes (as on a table it never walked). */
async function tickAt(ms: number): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.outboxCursor }));
  await redriveOutbox(ms);
}

/** The company's hand-over items still waiting, due in the hour holding `ms`. */
async function handOversLeft(companyId: number, ms: number): Promise<number> {
  let n = 0;
  const hour = new Date(ms).toISOString().slice(0, 13);
  for (let shard = 0; shard < dueShardsToRead("outbox"); shard++) {
    for await (const entries of outboxDuePages(shard, hour, hour, "9999")) n += entries.filter((e) => e.companyId === companyId && e.messagesInDay).length;
  }
  return n;
}

/** A customer's live text `id` on ticket `t`, as a writer hands it to `ingestMessage`. */
const inbound = (t: TicketItem, id: string) => ({
  id, ticketId: t.id, companyId: t.companyId, contactId: t.contactId, whatsappId: t.whatsappId, remoteJid: "5511955550005@s.whatsapp.net", participant: null, senderName: null,
  body: id, fromMe: false, read: false, mediaType: "chat" as const, mediaKey: null, mediaName: null, mediaMime: null, mediaSize: null, mediaError: false, ack: 0, isDeleted: false,
  isEdited: false, previousBody: null, isForwarded: false, quotedMsgId: null, quotedMsg: null, reactions: [], waTimestamp: new Date().toISOString(), userId: null, sendError: null, isAutomatic: false,
});

/** The counters listener of a process that dies right after the store. */
const dyingProcess = () => addListener({ name: "counters", handle: async () => { throw new Error("process killed"); } });

describe("customers' messages per day", () => {
  it("counts a message delivered three times once, live and after the day's hand-over", async () => {
    const ctx = await newCompany();
    const day = spDay();
    const m = text("5511955550001@s.whatsapp.net", "3EB0MSGIN00000000001", "oi");
    await Promise.all([upsert(ctx, [m]), upsert(ctx, [m]), upsert(ctx, [m])]);
    await settleDeferred();
    expect((await readDailyCounters(ctx.companyId, day)).messagesIn).toBe(1);
    await upsert(ctx, [m]); // and once more, later
    await settleDeferred();
    expect(await stored(ctx.companyId, day)).toEqual({ live: 1, handedOver: 0 });

    const due = endOf(day) + MESSAGES_IN_GRACE_MS;
    await tickAt(due - 60_000); // not due yet: the day may still get messages
    expect(await handOversLeft(ctx.companyId, due)).toBe(1);
    await tickAt(due + 60_000);
    await tickAt(due + 120_000); // the next tick hands nothing over again
    expect(await stored(ctx.companyId, day)).toEqual({ live: 1, handedOver: 1 });
    expect(await handOversLeft(ctx.companyId, due)).toBe(0);
    expect((await readDailyCounters(ctx.companyId, day)).messagesIn).toBe(1);
  });

  it("counts two messages arriving at once on one ticket as two, and what a dying process missed live at the day's end", async () => {
    const ctx = await newCompany();
    const day = spDay();
    const jid = "5511955550002@s.whatsapp.net";
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000002", "bom dia")]);
    await settleDeferred();
    // Two at once on the open ticket (one of them retried on a fresh read), then from another process (no copy kept).
    await Promise.all([upsert(ctx, [text(jid, "3EB0MSGIN00000000003", "tudo bem?")]), upsert(ctx, [text(jid, "3EB0MSGIN00000000004", "preciso de ajuda")])]);
    clearIngestCaches();
    await Promise.all([upsert(ctx, [text(jid, "3EB0MSGIN00000000005", "alô")]), upsert(ctx, [text(jid, "3EB0MSGIN00000000006", "alguém?")])]);
    await settleDeferred();
    expect((await readDailyCounters(ctx.companyId, day)).messagesIn).toBe(5);
    // A process dies between storing a message and its live count: today's figure misses it...
    dyingProcess();
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000007", "oi?")]);
    addListener(countersListener);
    await settleDeferred();
    expect((await readDailyCounters(ctx.companyId, day)).messagesIn).toBe(5);
    const ticket = (await getTicketItem(ctx.companyId, (await ticketOf(ctx)).id, true))!;
    expect(ticket.messagesIn).toBe(6);
    expect(ticket.inDays).toEqual({ [day]: 6 });
    // ...and the day's end hands the ticket's exact count over.
    await tickAt(endOf(day) + MESSAGES_IN_GRACE_MS + 60_000);
    expect(await stored(ctx.companyId, day)).toEqual({ live: 5, handedOver: 6 });
    expect((await readDailyCounters(ctx.companyId, day)).messagesIn).toBe(6);
  });

  it("counts exactly from writers without the exact copy of the ticket (media, a chat known by two JIDs): two at once, either map state", async () => {
    const ctx = await newCompany();
    const day = spDay();
    await upsert(ctx, [text("5511955550005@s.whatsapp.net", "3EB0MSGIN00000000013", "oi")]);
    await settleDeferred();
    const stale = (await getTicketItem(ctx.companyId, (await ticketOf(ctx)).id, true))!;
    const store = (id: string, copy: TicketItem) => ingestMessage(ctx.companyId, copy, inbound(copy, id), { lastMessage: id, incrementUnread: true, waAliasJid: "5511955550005@s.whatsapp.net" });
    // Two at once on a copy that has the day's count: both add to it.
    await Promise.all([store("3EB0MSGIN00000000014", stale), store("3EB0MSGIN00000000015", stale)]);
    await settleDeferred();
    expect((await getTicketItem(ctx.companyId, stale.id, true))?.inDays).toEqual({ [day]: 3 });
    // Two at once on a ticket with no day count yet (stored before them): one writes the map, the other finds it
    // written and adds to its key instead of overwriting it; the same message again counts nothing.
    const bare = await makeTicket(ctx.companyId, { whatsappId: ctx.whatsappId });
    const tries = await Promise.all([store("3EB0MSGIN00000000016", bare), store("3EB0MSGIN00000000017", bare)]);
    expect(tries.map((t) => t.stored)).toEqual([true, true]);
    const fresh = (await getTicketItem(ctx.companyId, bare.id, true))!;
    expect((await store("3EB0MSGIN00000000017", fresh)).stored).toBe(false);
    await settleDeferred();
    expect((await getTicketItem(ctx.companyId, bare.id, true))?.inDays).toEqual({ [day]: 2 });
    // (Stored behind the events' back: no live count.) The day's end hands both tickets' counts over.
    await tickAt(endOf(day) + MESSAGES_IN_GRACE_MS + 60_000);
    expect(await stored(ctx.companyId, day)).toEqual({ live: 1, handedOver: 5 });
  });

  it("counts a message at 23:59 and one at 00:01 in São Paulo on their own local days", async () => {
    const ctx = await newCompany();
    const jid = "5511955550003@s.whatsapp.net";
    // Yesterday 23:59 and today 00:01 in São Paulo (02:59 and 03:01 UTC).
    const midnight = endOf(spDay(Date.now() - 86_400_000));
    const [before, after] = [spDay(midnight - 60_000), spDay(midnight + 60_000)];
    expect(before < after).toBe(true);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(midnight - 60_000);
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000008", "ainda aí?")]);
    vi.setSystemTime(midnight + 60_000);
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000009", "bom dia")]);
    vi.useRealTimers();
    await settleDeferred();
    expect([(await readDailyCounters(ctx.companyId, before)).messagesIn, (await readDailyCounters(ctx.companyId, after)).messagesIn]).toEqual([1, 1]);
    expect((await getTicketItem(ctx.companyId, (await ticketOf(ctx)).id, true))?.inDays).toEqual({ [before]: 1, [after]: 1 });
    // The earlier day is handed over a quarter of an hour after its midnight; the later one is not due yet.
    await tickAt(midnight + MESSAGES_IN_GRACE_MS + 60_000);
    expect([await stored(ctx.companyId, before), await stored(ctx.companyId, after)]).toEqual([
      { live: 1, handedOver: 1 },
      { live: 1, handedOver: 0 },
    ]);
  });

  it("counts a ticket's messages for the attendant who had it when each arrived", async () => {
    const ctx = await newCompany();
    const day = spDay();
    const jid = "5511955550004@s.whatsapp.net";
    const ana: TicketActor = { userId: 7, companyId: ctx.companyId, profile: "admin", name: "Ana", queueIds: [], allTicket: "desabled" };
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000010", "olá")]); // waiting: nobody's
    await settleDeferred();
    await updateTicketByUser(ana, (await ticketOf(ctx)).id, { status: "open" });
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000011", "obrigada por atender")]);
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000012", "é sobre o pedido")]);
    await settleDeferred();
    expect([(await readDailyCounters(ctx.companyId, day)).messagesIn, (await readDailyCounters(ctx.companyId, day, 7)).messagesIn]).toEqual([3, 2]);
    await tickAt(endOf(day) + MESSAGES_IN_GRACE_MS + 60_000);
    expect([await stored(ctx.companyId, day), await stored(ctx.companyId, day, 7)]).toEqual([
      { live: 3, handedOver: 3 },
      { live: 2, handedOver: 2 },
    ]);
  });

  it("keeps a deleted ticket's messages of the days not yet handed over, and counts a day handed over once", async () => {
    const ctx = await newCompany();
    const jid = "5511955550006@s.whatsapp.net";
    const ana: TicketActor = { userId: 7, companyId: ctx.companyId, profile: "admin", name: "Ana", queueIds: [], allTicket: "desabled" };
    // Yesterday's message, handed over by yesterday's end; today's, one waiting and two with Ana.
    const yesterday = spDay(Date.now() - 86_400_000);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(endOf(yesterday) - 3_600_000);
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000018", "ontem")]);
    vi.useRealTimers();
    await settleDeferred();
    await tickAt(endOf(yesterday) + MESSAGES_IN_GRACE_MS + 60_000);
    expect(await stored(ctx.companyId, yesterday)).toEqual({ live: 1, handedOver: 1 });
    const day = spDay();
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000019", "hoje")]);
    await settleDeferred();
    const { id } = await ticketOf(ctx);
    await updateTicketByUser(ana, id, { status: "open" });
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000020", "obrigada")]);
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000021", "até logo")]);
    await settleDeferred();
    expect((await getTicketItem(ctx.companyId, id, true))?.inDays).toEqual({ [yesterday]: 1, [day]: 1, [`${day}#U#7`]: 2 });

    await deleteTicketByAdmin(ana, id);
    expect(await getTicketItem(ctx.companyId, id, true)).toBeNull();
    // Today's counts are handed over by the deletion; yesterday's is not counted again, at the day's end nor later.
    expect([await stored(ctx.companyId, day), await stored(ctx.companyId, day, 7)]).toEqual([
      { live: 3, handedOver: 3 },
      { live: 2, handedOver: 2 },
    ]);
    await tickAt(endOf(day) + MESSAGES_IN_GRACE_MS + 60_000);
    expect(await handOversLeft(ctx.companyId, endOf(day) + MESSAGES_IN_GRACE_MS)).toBe(0);
    expect([await stored(ctx.companyId, yesterday), await stored(ctx.companyId, day), await stored(ctx.companyId, day, 7)]).toEqual([
      { live: 1, handedOver: 1 },
      { live: 3, handedOver: 3 },
      { live: 2, handedOver: 2 },
    ]);
  });

  it("keeps a deleted ticket's messages counted once when the company changed its time zone since they arrived", async () => {
    const ctx = await newCompany();
    const jid = "5511955550007@s.whatsapp.net";
    const day = spDay();
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000022", "olá")]);
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000023", "alguém?")]);
    await settleDeferred();
    const { id } = await ticketOf(ctx);
    expect((await getTicketItem(ctx.companyId, id, true))?.inDays).toEqual({ [day]: 2 });
    // The company moves to Tokyo's zone: today's hand-over item is due at São Paulo's day end, not Tokyo's.
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.company(ctx.companyId), UpdateExpression: "SET #tz = :tz", ExpressionAttributeNames: { "#tz": "timezone" }, ExpressionAttributeValues: { ":tz": "Asia/Tokyo" } }));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 6 * 60_000); // past the five minutes a process keeps a company's zone
    await deleteTicketByAdmin({ userId: 7, companyId: ctx.companyId, profile: "admin", name: "Ana", queueIds: [], allTicket: "desabled" }, id);
    vi.useRealTimers();
    expect(await getTicketItem(ctx.companyId, id, true)).toBeNull();
    // São Paulo's day end hands the deleted ticket's two messages over, once, however often the tick runs.
    await tickAt(endOf(day) + MESSAGES_IN_GRACE_MS + 60_000);
    await tickAt(endOf(day) + MESSAGES_IN_GRACE_MS + 120_000);
    expect(await handOversLeft(ctx.companyId, endOf(day) + MESSAGES_IN_GRACE_MS)).toBe(0);
    expect(await stored(ctx.companyId, day)).toEqual({ live: 2, handedOver: 2 });
  });
});

describe("a late hand-over", { timeout: 60_000 }, () => {
  it("of a deleted ticket's day in a sealed month invalidates that month's and that week's roll-ups in the deletion's transaction", async () => {
    const ctx = await newCompany();
    const jid = "5511955550008@s.whatsapp.net";
    // A message on the last day of a month three months back, its hand-over item never applied (no tick since).
    const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 3, 1)).toISOString().slice(0, 7);
    const day = lastDayOf(month);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(endOf(day) - 3_600_000);
    await upsert(ctx, [text(jid, "3EB0MSGIN00000000024", "ainda aí?")]);
    vi.useRealTimers();
    await settleDeferred();
    const { id } = await ticketOf(ctx);
    expect((await getTicketItem(ctx.companyId, id, true))?.inDays).toEqual({ [day]: 1 });
    const revOf = async (Key: { PK: string; SK: string }) => Number((await ddb().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }))).Item?.rev ?? 0);
    const rev = () => Promise.all([revOf(keys.statsMonth(ctx.companyId, month)), revOf(keys.statsWeek(ctx.companyId, mondayOf(day)))]);
    const [monthBefore, weekBefore] = await rev();
    await deleteTicketByAdmin({ userId: 7, companyId: ctx.companyId, profile: "admin", name: "Ana", queueIds: [], allTicket: "desabled" }, id);
    // The deletion handed the day over (a day of a sealed month and week): both revisions moved with it.
    expect(await stored(ctx.companyId, day)).toEqual({ live: 1, handedOver: 1 });
    expect(await rev()).toEqual([monthBefore + 1, weekBefore + 1]);
  });
});

/** The company's only ticket (whatever its status). */
async function ticketOf(ctx: IngestContext): Promise<{ id: number }> {
  for (const status of ["pending", "open", "closed"] as const) {
    const out = await ddb().send(
      new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": keys.ticketStatusPK(ctx.companyId, status) } }),
    );
    if (out.Items?.length) return { id: Number(out.Items[0].id) };
  }
  throw new Error(`no ticket in company ${ctx.companyId}`);
}
