/**
 * The due indexes' shard count is a setting (`DUE_SHARDS`): raising it (8 → 16) spreads new items over more
 * partitions, and nothing written under the old count is lost: the minute tick still finds every due outbound
 * message, timer and outbox fact. Lowering it again is safe with `DUE_SHARDS_PREVIOUS`. Against DynamoDB Local.
 */
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../config.ts";
import { readDailyCounters } from "./counters.ts";
import { ddb } from "./client.ts";
import { dueShardsOf, dueShardsToRead, keys, shardOfName } from "./keys.ts";
import { companyZone, counterFacts, localDayHour, outboxDuePages, outboxPut, redriveOutbox } from "../events/outbox.ts";
import { putOutboundPending } from "../messages/repository.ts";
import { sweepOutbound } from "../messages/delivery.ts";
import { getTimer, registerTimerKind, runDueTimers, scheduleTimer } from "../timers/index.ts";
import { companyWorld } from "../../../test/world.ts";

// A counter fact counts only for a company that exists: each test takes a company of its own.
const w = companyWorld();
const fired: string[] = [];
registerTimerKind("dueShardsTest", async (t) => void fired.push(`${t.companyId}#${t.ref}`));

function setShards(current?: number, previous?: number) {
  if (current === undefined) delete process.env.DUE_SHARDS;
  else process.env.DUE_SHARDS = String(current);
  if (previous === undefined) delete process.env.DUE_SHARDS_PREVIOUS;
  else process.env.DUE_SHARDS_PREVIOUS = String(previous);
  resetConfig();
}
afterEach(() => setShards());

/** The first id from `from` whose name lands in shards 8-15 of 16 (so its shard under 16 is not its shard under 8). */
function idMovedBy16(name: (id: number) => string, from: number): number {
  for (let id = from; ; id++) if (shardOfName(name(id), 16) >= 8) return id;
}

/** Writes one due item of each index for company `cid` under the current shard count, due a few minutes before `now`. */
async function writeDueItems(cid: number, now: number) {
  const ticketId = idMovedBy16((t) => `${cid}#${t}`, 1);
  await putOutboundPending({ companyId: cid, ticketId, whatsappId: 1, messageId: `M${cid}`, commandId: `c-${cid}`, dueAt: new Date(now - 60_000).toISOString(), redriven: true }, now);
  const ref = String(idMovedBy16((r) => `${cid}#dueShardsTest#${r}`, 1));
  await scheduleTimer(cid, "dueShardsTest", ref, now - 60_000);
  const messageId = `3EB0${idMovedBy16((m) => keys.outboxId.message(ticketId, `3EB0${m}`), 1)}`;
  const fact = counterFacts.message({ companyId: cid, ticketId, id: messageId, fromMe: true, userId: 7, createdAt: new Date(now - 5 * 60_000).toISOString() })!;
  await ddb().send(new TransactWriteCommand({ TransactItems: outboxPut(fact) }));
  // Counted on the company's local day (its zone), which differs from the fact's UTC day between 00:00 and 03:00 UTC.
  return { ticketId, ref, day: localDayHour(fact.at, await companyZone(cid)).day };
}

/** What the tick at `now` does with company `cid`'s items, and what is left of them. */
async function tickFinds(cid: number, items: { ref: string; day: string }, now: number) {
  const swept = await sweepOutbound(now);
  await runDueTimers(new Date(now));
  await redriveOutbox(now);
  let outboxLeft = 0;
  for (let shard = 0; shard < 16; shard++) {
    const hour = new Date(now - 4 * 60_000).toISOString().slice(0, 13);
    for await (const entries of outboxDuePages(shard, hour, hour, "9999")) outboxLeft += entries.filter((e) => e.companyId === cid).length;
  }
  return {
    outboundSettled: swept.settled,
    timerFired: fired.includes(`${cid}#${items.ref}`),
    timerLeft: !!(await getTimer(cid, "dueShardsTest", items.ref)),
    messagesOut: (await readDailyCounters(cid, items.day)).messagesOut,
    outboxLeft,
  };
}

const found = { outboundSettled: 1, timerFired: true, timerLeft: false, messagesOut: 1, outboxLeft: 0 };

describe("the due indexes' shard count", () => {
  it("is 8 (timers 4) by default, and what DUE_SHARDS says once set", () => {
    expect([dueShardsOf("outbox"), dueShardsOf("outbound"), dueShardsOf("timers")]).toEqual([8, 8, 4]);
    setShards(16);
    expect([dueShardsOf("outbox"), dueShardsOf("outbound"), dueShardsOf("timers")]).toEqual([16, 16, 16]);
  });

  it("loses no due item written under 8 shards when raised to 16: the tick re-drives the message, fires the timer and counts the fact once", async () => {
    const now = Date.now();
    const { cid } = await w.fresh();
    const items = await writeDueItems(cid, now);
    setShards(16);
    expect(dueShardsToRead("outbound")).toBe(16);
    expect(await tickFinds(cid, items, now)).toEqual(found);
    // Nothing is found (nor counted) a second time.
    expect(await tickFinds(cid, items, now + 60_000)).toEqual({ ...found, outboundSettled: 0 });
  });

  it("loses no item written under 16 when lowered back to 8, as long as DUE_SHARDS_PREVIOUS names the 16", async () => {
    const now = Date.now() + 3 * 60_000;
    setShards(16);
    const { cid } = await w.fresh();
    const items = await writeDueItems(cid, now);
    setShards(8, 16);
    expect(dueShardsToRead("timers")).toBe(16);
    expect(await tickFinds(cid, items, now)).toEqual(found);
  });
});
