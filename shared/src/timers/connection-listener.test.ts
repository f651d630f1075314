/**
 * Timers follow the connection's settings (docs/product/timers.md), through `PUT /api/whatsapp/{id}` and the minute tick's
 * `runDueTimers` with a controlled clock: tickets already open or pending on the connection get their `expiresTicket`,
 * `timeToTransfer` and rating-wait timers when the admin turns the field on or changes it, lose them when it is turned
 * off, and the timer then fires at the new time; tickets of the company's other connection are left alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { nowIso } from "../common.ts";
import { getTicketItem, writeTicketTransition } from "../tickets/repository.ts";
import { makeTicket } from "../tickets/fixtures.testkit.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { getTimer, runDueTimers, scheduleTimer } from "./index.ts";
import { EXPIRES_TICKET, RATING_WAIT, TIME_TO_TRANSFER } from "./kinds.ts";
import "./ticket-kinds.ts";
import "../automation/rating.ts";

const MIN = 60_000;
const w = companyWorld({ queues: ["Triagem"], whatsapp: [{ name: "Loja" }, { name: "Outra", isDefault: false }] });
let cid: number;
let admin: TestUser;
let wa: number;
let otherWa: number;
let transferQueue: number;

beforeAll(() => {
  ({ cid, admin } = w);
  [wa, otherWa] = w.whatsapps;
  [transferQueue] = w.queues;
});

const edit = async (body: Record<string, unknown>, id = wa) => {
  const res = await api("PUT", `/api/whatsapp/${id}`, { token: admin.token, body });
  expect(res.status).toBe(200);
};
const dueOf = async (kind: string, t: TicketItem) => (await getTimer(cid, kind, t.id))?.dueAt ?? null;
const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * MIN).toISOString();

describe("timers follow the connection's settings", { timeout: 120_000 }, () => {
  it("schedules expiresTicket for the connection's open tickets when turned on, moves it when changed, removes it when turned off", async () => {
    const open = await makeTicket(cid, { whatsappId: wa, status: "open", userId: admin.id });
    const pending = await makeTicket(cid, { whatsappId: wa });
    const group = await makeTicket(cid, { whatsappId: wa, status: "open", userId: admin.id, isGroup: true });
    const elsewhere = await makeTicket(cid, { whatsappId: otherWa, status: "open", userId: admin.id });
    expect(await dueOf(EXPIRES_TICKET, open)).toBeNull();

    await edit({ expiresTicket: 30 });
    expect(await dueOf(EXPIRES_TICKET, open)).toBe(at(open.updatedAt, 30));
    for (const t of [pending, group, elsewhere]) expect(await dueOf(EXPIRES_TICKET, t)).toBeNull();

    await edit({ expiresTicket: 90 });
    expect(await dueOf(EXPIRES_TICKET, open)).toBe(at(open.updatedAt, 90));
    // A change of an unrelated field leaves the timer where it is.
    await edit({ name: "Loja Centro" });
    expect(await dueOf(EXPIRES_TICKET, open)).toBe(at(open.updatedAt, 90));

    await edit({ expiresTicket: 0 });
    expect(await dueOf(EXPIRES_TICKET, open)).toBeNull();
  });

  it("gives a waiting ticket without a queue its timeToTransfer, which then moves it at the new time", async () => {
    const waiting = await makeTicket(cid, { whatsappId: wa });
    const queued = await makeTicket(cid, { whatsappId: wa, queueId: transferQueue });
    await edit({ timeToTransfer: 20, transferQueueId: transferQueue });
    expect(await dueOf(TIME_TO_TRANSFER, waiting)).toBe(at(waiting.updatedAt, 20));
    expect(await dueOf(TIME_TO_TRANSFER, queued)).toBeNull();

    // Shorter: the timer keeps when the ticket started waiting.
    await edit({ timeToTransfer: 5 });
    expect(await dueOf(TIME_TO_TRANSFER, waiting)).toBe(at(waiting.updatedAt, 5));
    await runDueTimers(new Date(Date.parse(waiting.updatedAt) + 4 * MIN));
    expect((await getTicketItem(cid, waiting.id, true))?.queueId).toBeNull();
    await runDueTimers(new Date(Date.parse(waiting.updatedAt) + 5 * MIN));
    expect((await getTicketItem(cid, waiting.id, true))?.queueId).toBe(transferQueue);
    expect(await dueOf(TIME_TO_TRANSFER, waiting)).toBeNull();
  });

  it("removes timeToTransfer when the admin turns it off or clears the queue", async () => {
    const waiting = await makeTicket(cid, { whatsappId: otherWa });
    await edit({ timeToTransfer: 15, transferQueueId: transferQueue }, otherWa);
    expect(await dueOf(TIME_TO_TRANSFER, waiting)).toBe(at(waiting.updatedAt, 15));
    await edit({ transferQueueId: null }, otherWa);
    expect(await dueOf(TIME_TO_TRANSFER, waiting)).toBeNull();
    await edit({ transferQueueId: transferQueue }, otherWa);
    expect(await dueOf(TIME_TO_TRANSFER, waiting)).toBe(at(waiting.updatedAt, 15));
    await edit({ timeToTransfer: 0 }, otherWa);
    expect(await dueOf(TIME_TO_TRANSFER, waiting)).toBeNull();
  });

  it("moves a rating wait to ratingAt + the new ratingWaitMinutes, keeping its re-prompt flag, and closes the ticket then", async () => {
    const t = await makeTicket(cid, { whatsappId: wa, status: "open", userId: admin.id });
    const ratingAt = nowIso();
    const awaiting = await writeTicketTransition(t, { ratingAt, updatedAt: ratingAt });
    await scheduleTimer(cid, RATING_WAIT, t.id, Date.parse(ratingAt) + 1440 * MIN, { ratingAt, reprompted: true });

    await edit({ ratingWaitMinutes: 10 });
    const moved = await getTimer(cid, RATING_WAIT, t.id);
    expect(moved?.dueAt).toBe(at(ratingAt, 10));
    expect(moved?.data).toEqual({ ratingAt, reprompted: true });

    await runDueTimers(new Date(Date.parse(ratingAt) + 9 * MIN));
    expect((await getTicketItem(cid, awaiting.id, true))?.status).toBe("open");
    await runDueTimers(new Date(Date.parse(ratingAt) + 10 * MIN));
    const closed = await getTicketItem(cid, awaiting.id, true);
    expect(closed?.status).toBe("closed");
    expect(closed?.ratingAt ?? null).toBeNull();
  });
});
