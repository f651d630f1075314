/**
 * Campaign dispatch (`npm run bench -- --only=campaigns`): how many campaign sends the engine sustains, with zero
 * intervals (the ceiling; real campaigns are paced far below it). Two cases:
 * - one connection: a campaign of `perConnection` numbers (default 300), its planner run at once and the sends
 *   handed to the dispatch consumer (`sendShipping`) one after the other, as one connection's queue delivers them;
 * - 50 connections at once: 50 campaigns of `perConnectionMany` numbers (default 100), one per connection, planned
 *   and sent in parallel (one worker per connection).
 * Every send is the whole path: the contact found or created, the ticket, the message stored and its session
 * command queued. The companies have no business hours (any time) and the connections are CONNECTED without a
 * session. Reports sends/s (sends that went out), ms per send p50/p99, the outcomes (sent, released, skipped,
 * failed) and that each number got exactly one message. No session runner acknowledges the sends: a run longer than
 * the outbound deadline (10 min, a very loaded machine) sees its messages failed by the minute tick and the campaign
 * paused automatically (CANCELADA), which the delivered column then shows.
 */
import { nowIso } from "../../shared/src/common.ts";
import { runCampaignPlanner, sendShipping, type PlannedMessage } from "../../shared/src/campaigns/engine.ts";
import { getCampaign, putNewCampaign, putShippingOnce, saveCampaignSettings } from "../../shared/src/campaigns/repository.ts";
import { CampaignItem } from "../../shared/src/campaigns/schema.ts";
import { makeWhatsapp } from "../../shared/src/tickets/fixtures.testkit.ts";
import { load, summarize } from "./stats.ts";

/** A running campaign of `n` numbers on a fresh connection of company `cid` (written directly, audience ready). */
async function seedCampaign(cid: number, n: number, k: number): Promise<{ campaignId: number; whatsappId: number }> {
  const wa = await makeWhatsapp(cid, { status: "CONNECTED", isDefault: false, number: `5511977${String(k).padStart(6, "0")}` });
  const now = nowIso();
  const campaignId = k + 1;
  await putNewCampaign(
    CampaignItem.parse({ id: campaignId, companyId: cid, name: `Bench ${k}`, message1: "Olá {nome}, oferta {numero}", status: "EM_ANDAMENTO", whatsappId: wa.id, audienceReady: true, valid: n, runs: 1, createdAt: now, updatedAt: now }),
  );
  await load(n, 16, async (i) => {
    await putShippingOnce({
      companyId: cid, campaignId, seq: i + 1, number: `55${String(10 + (k % 89)).padStart(2, "0")}9${String(k).padStart(3, "0")}${String(i).padStart(5, "0")}`, name: `Cliente ${i}`, email: "",
      contactId: null, status: "pending", dueAt: null, run: 1, step: null, messageIds: null, message: null, confirmationMessage: null,
      confirmationRequestedAt: null, confirmedAt: null, deliveredAt: null, error: null, updatedAt: now,
    });
  });
  return { campaignId, whatsappId: wa.id };
}

/**
 * Plans and sends one campaign to the end; returns each send's duration (ms), only for sends that went out (a send
 * released or skipped, e.g. after the campaign stopped, sent nothing and is not timed), and the outcomes' tally.
 */
async function runCampaign(cid: number, campaignId: number, tally: Record<string, number>): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < 50; round++) {
    const planned: PlannedMessage[] = [];
    const out = await runCampaignPlanner(cid, campaignId, Date.now(), { send: async (ms) => void planned.push(...ms) });
    for (const m of planned) {
      const t0 = performance.now();
      const outcome = await sendShipping(m.msg);
      tally[outcome] = (tally[outcome] ?? 0) + 1;
      if (outcome === "sent") times.push(performance.now() - t0);
    }
    if (out.nextRunAt == null || !planned.length) break;
  }
  return times;
}

export async function benchCampaigns(opts: { perConnection?: number; perConnectionMany?: number; connections?: number } = {}) {
  const n = opts.perConnection ?? 300;
  const nMany = opts.perConnectionMany ?? 100;
  const connections = opts.connections ?? 50;
  const base = 900_000 + Math.floor(Math.random() * 90_000);
  const zero = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] };

  // One connection.
  await saveCampaignSettings(base, zero, nowIso());
  const one = await seedCampaign(base, n, 0);
  const t1 = performance.now();
  const oneTally: Record<string, number> = {};
  const oneTimes = await runCampaign(base, one.campaignId, oneTally);
  const oneSeconds = (performance.now() - t1) / 1000;
  const oneDone = await getCampaign(base, one.campaignId);

  // 50 connections at once (one company, one campaign per connection).
  const cid = base + 1;
  await saveCampaignSettings(cid, zero, nowIso());
  const seeded: { campaignId: number }[] = [];
  for (let k = 0; k < connections; k++) seeded.push(await seedCampaign(cid, nMany, k));
  const tMany = performance.now();
  const manyTally: Record<string, number> = {};
  const manyTimes = (await Promise.all(seeded.map((s) => runCampaign(cid, s.campaignId, manyTally)))).flat();
  const manySeconds = (performance.now() - tMany) / 1000;
  const finals = await Promise.all(seeded.map((s) => getCampaign(cid, s.campaignId)));
  const oneStats = summarize(oneTimes);
  const manyStats = summarize(manyTimes);
  return {
    perConnection: n,
    perConnectionMany: nMany,
    connections,
    one: { sends: oneTimes.length, seconds: Number(oneSeconds.toFixed(1)), sendsPerSecond: Number((oneTimes.length / oneSeconds).toFixed(1)), msPerSend: oneStats, delivered: oneDone?.delivered, status: oneDone?.status, outcomes: oneTally },
    many: {
      sends: manyTimes.length,
      seconds: Number(manySeconds.toFixed(1)),
      sendsPerSecond: Number((manyTimes.length / manySeconds).toFixed(1)),
      perConnectionPerSecond: Number((manyTimes.length / manySeconds / connections).toFixed(2)),
      msPerSend: manyStats,
      finished: finals.filter((c) => c?.status === "FINALIZADA").length,
      delivered: finals.reduce((a, c) => a + (c?.delivered ?? 0), 0),
      outcomes: manyTally,
    },
  };
}
