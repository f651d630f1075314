/**
 * Campaign dispatch (`npm run bench -- --only=campaigns`): how many campaign sends the engine sustains, with zero
 * intervals (the ceiling; real campaigns are paced far below it). Two cases:
 * - one connection: a campaign of `perConnection` numbers (default 300), its planner run at once and the sends
 *   handed to the dispatch consumer (`sendShipping`) one after the other, as one connection's queue delivers them;
 * - 50 connections at once: 50 campaigns of `perConnectionMany` numbers (default 100), one per connection, planned
 *   and sent in parallel (one worker per connection).
 * Every send is the whole path: the contact found or created, the ticket, the message stored and its session
 * command queued; then the local stack's session runner takes the command and sends it on the simulated WhatsApp
 * network, whose receipts come back through the ingest as acks. Each connection is made as an admin makes one
 * (`createWhatsapp`: its session starts on the runner) and its QR scanned on the simulated network (`/sim/whatsapp/{id}/scan`,
 * as the browser tests do), so it is CONNECTED with a real simulated session. The companies are open every day
 * 00:00-23:59 (a run at 23:59 local time waits a minute).
 * Reports, per case: sends/s handed to the session queue (`sendShipping`), sends/s to the last message on the
 * network, ms per send p50/p99, CPU per send (this process, which hosts the stack and the runner, plus DynamoDB
 * Local), DynamoDB calls per send (every call of this process, by command and what it touches), the outcomes, the campaigns' delivered and failed counts, and that each number got exactly one message.
 */
import { nowIso } from "../../shared/src/common.ts";
import { runCampaignPlanner, sendShipping, type PlannedMessage } from "../../shared/src/campaigns/engine.ts";
import { countDdbCalls } from "../../shared/src/ingest/calls.testkit.ts";
import { getCampaign, putNewCampaign, putShippingOnce, saveCampaignSettings } from "../../shared/src/campaigns/repository.ts";
import { CampaignItem } from "../../shared/src/campaigns/schema.ts";
import { updateCompanyFields } from "../../shared/src/companies/repository.ts";
import { getWhatsappItem } from "../../shared/src/whatsapp/repository.ts";
import { createWhatsapp } from "../../shared/src/whatsapp/service.ts";
import { load, summarize } from "./stats.ts";

/** Waits for `probe` to answer something (every 200 ms, at most `ms`); throws with `what` when it never does. */
async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`campaigns bench: ${what} did not happen in ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A connection of company `cid` with a real simulated session: created as an admin creates one (the runner starts
 * its session and shows a QR), its QR scanned on the simulated network, then CONNECTED. Returns its id.
 */
async function connectSimulated(url: string, cid: number, k: number): Promise<number> {
  const wa = await createWhatsapp({ companyId: cid, admin: true }, { name: `Bench ${k}`, isDefault: k === 0, queueIds: [], greetingMessage: "" } as never);
  await until(`the QR of connection ${wa.id}`, async () => ((await (await fetch(`${url}/sim/whatsapp/${wa.id}`)).json()) as { qrcode?: string }).qrcode);
  const number = `5511977${String(k).padStart(6, "0")}`;
  const scan = await fetch(`${url}/sim/whatsapp/${wa.id}/scan`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ number }) });
  if (!scan.ok) throw new Error(`campaigns bench: scan of connection ${wa.id} → ${scan.status} ${await scan.text()}`);
  await until(`connection ${wa.id} CONNECTED`, async () => (await getWhatsappItem(cid, wa.id))?.status === "CONNECTED");
  return wa.id;
}

/** A running campaign of `n` numbers on connection `whatsappId` of company `cid` (written directly, audience ready). */
async function seedCampaign(cid: number, n: number, k: number, whatsappId: number): Promise<{ campaignId: number; whatsappId: number }> {
  const now = nowIso();
  const campaignId = k + 1;
  await putNewCampaign(
    CampaignItem.parse({ id: campaignId, companyId: cid, name: `Bench ${k}`, message1: "Olá {nome}, oferta {numero}", status: "EM_ANDAMENTO", whatsappId, audienceReady: true, valid: n, runs: 1, createdAt: now, updatedAt: now }),
  );
  await load(n, 16, async (i) => {
    await putShippingOnce({
      companyId: cid, campaignId, seq: i + 1, number: `55${String(10 + (k % 89)).padStart(2, "0")}9${String(k).padStart(3, "0")}${String(i).padStart(5, "0")}`, name: `Cliente ${i}`, email: "",
      contactId: null, status: "pending", dueAt: null, run: 1, step: null, messageIds: null, message: null, confirmationMessage: null,
      confirmationRequestedAt: null, confirmedAt: null, deliveredAt: null, error: null, repliedBy: null, closedBy: null, updatedAt: now,
    });
  });
  return { campaignId, whatsappId };
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

/** What the simulated network carried from connection `whatsappId`: messages, and distinct recipients. */
async function carried(url: string, whatsappId: number): Promise<{ messages: number; recipients: number }> {
  const sent = (await (await fetch(`${url}/sim/whatsapp/${whatsappId}/sent`)).json()) as { jid: string }[];
  return { messages: sent.length, recipients: new Set(sent.map((m) => m.jid)).size };
}

/**
 * One case: the campaigns run to their last send, then the wait until the network carried every message sent. Returns
 * the sends timed, the seconds to the last send handed over and to the last message on the network, the CPU (ms)
 * over that whole time, the outcomes, and what each connection's network carried.
 */
async function runCase(url: string, cid: number, seeded: { campaignId: number; whatsappId: number }[], cpu: () => { node: number; ddb: number }) {
  const t0 = performance.now();
  const cpu0 = cpu();
  const calls = countDdbCalls();
  const tally: Record<string, number> = {};
  const times = (await Promise.all(seeded.map((s) => runCampaign(cid, s.campaignId, tally)))).flat();
  const handedSeconds = (performance.now() - t0) / 1000;
  const expected = tally.sent ?? 0;
  let net: { messages: number; recipients: number }[] = [];
  await until(
    "every message on the network",
    async () => {
      net = await Promise.all(seeded.map((s) => carried(url, s.whatsappId)));
      return net.reduce((a, n) => a + n.messages, 0) >= expected;
    },
    600_000,
  ).catch((err) => console.log(String(err)));
  const networkSeconds = (performance.now() - t0) / 1000;
  const cpu1 = cpu();
  calls.remove();
  const finals = await Promise.all(seeded.map((s) => getCampaign(cid, s.campaignId)));
  const messages = net.reduce((a, n) => a + n.messages, 0);
  const per = (ms: number) => Number((ms / Math.max(1, messages)).toFixed(1));
  return {
    sends: times.length,
    handedSeconds: Number(handedSeconds.toFixed(1)),
    handedPerSecond: Number((times.length / handedSeconds).toFixed(1)),
    networkSeconds: Number(networkSeconds.toFixed(1)),
    networkPerSecond: Number((messages / networkSeconds).toFixed(1)),
    perConnectionPerSecond: Number((messages / networkSeconds / seeded.length).toFixed(2)),
    msPerSend: summarize(times),
    cpuMsPerSend: { node: per(cpu1.node - cpu0.node), dynamodb: per(cpu1.ddb - cpu0.ddb) },
    ddbCallsPerSend: per(calls.total),
    itemsWrittenPerSend: per(calls.written.items),
    ddbCallsByPurpose: Object.fromEntries([...calls.byPurpose].sort((x, y) => y[1] - x[1]).map(([k, v]) => [k, per(v)])),
    outcomes: tally,
    onNetwork: messages,
    eachNumberOnce: net.every((n) => n.messages === n.recipients),
    delivered: finals.reduce((a, c) => a + (c?.delivered ?? 0), 0),
    failed: finals.reduce((a, c) => a + (c?.failed ?? 0), 0),
    finished: finals.filter((c) => c?.status === "FINALIZADA").length,
    paused: finals.filter((c) => c?.pauseReason).map((c) => c?.pauseReason),
  };
}

/**
 * The two cases on the local stack at `url` (its session runner on the simulated network). `cpu`: CPU ms used so far
 * by this process (the stack and the runner) and by DynamoDB Local.
 */
export async function benchCampaigns(opts: { url: string; cpu: () => { node: number; ddb: number }; perConnection?: number; perConnectionMany?: number; connections?: number }) {
  const { makeCompany } = await import("../../test/helpers.ts");
  const n = opts.perConnection ?? 300;
  const nMany = opts.perConnectionMany ?? 100;
  const connections = opts.connections ?? 50;
  const zero = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] };
  const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
  const alwaysOpen = { schedules: days.map((d) => ({ weekday: d, weekdayEn: d, startTime: "00:00", endTime: "23:59" })) };

  // One connection.
  const a = (await makeCompany({ planLimits: { connections: 2 } })).companyId;
  await saveCampaignSettings(a, zero, nowIso());
  await updateCompanyFields(a, alwaysOpen);
  const oneSeeded = [await seedCampaign(a, n, 0, await connectSimulated(opts.url, a, 0))];
  const one = await runCase(opts.url, a, oneSeeded, opts.cpu);

  // 50 connections at once (one company, one campaign per connection).
  const b = (await makeCompany({ planLimits: { connections: connections + 1 } })).companyId;
  await saveCampaignSettings(b, zero, nowIso());
  await updateCompanyFields(b, alwaysOpen);
  const c0 = performance.now();
  const ids: number[] = [];
  for (let k = 0; k < connections; k++) ids.push(await connectSimulated(opts.url, b, k));
  const connectSeconds = Number(((performance.now() - c0) / 1000).toFixed(1));
  const manySeeded: { campaignId: number; whatsappId: number }[] = [];
  for (let k = 0; k < connections; k++) manySeeded.push(await seedCampaign(b, nMany, k, ids[k]!));
  const many = await runCase(opts.url, b, manySeeded, opts.cpu);
  return { perConnection: n, perConnectionMany: nMany, connections, connectSeconds, one, many };
}
