/**
 * The campaign engine with a controlled clock: the planner (the campaign's timer) runs at chosen instants and its
 * planned sends are handed to the dispatch queue's consumer at their time, as SQS would. Proves: each number of the
 * audience gets exactly one message under redelivery, a planner killed after planning, and cancel then restart; the
 * achieved schedule keeps the connection's interval (printed in the assertions); the automatic pause at 10%
 * failures; a connection down pauses and resumes; confirmation mode; FINALIZADA with `completedAt`; and one run
 * through the real dispatch queue.
 */
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { api, multipartBody } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, useLocalAws } from "../../../test/world.ts";
import { handler as dispatchHandler } from "../../../functions/src/jobs/dispatch.ts";
import { getConfig } from "../config.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { dispatch } from "../events/index.ts";
import { getMessageById, updateMessage } from "../messages/repository.ts";
import { sqsClient } from "../sqs/enqueue.ts";
import { makeContact, makeTicket, makeWhatsapp } from "../tickets/fixtures.testkit.ts";
import { getTicketItem } from "../tickets/repository.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { ingestInbound } from "./engine.testkit.ts";
import { countDdbCalls } from "../ingest/calls.testkit.ts";
import { redriveDurable, RUN_GRACE_MS } from "../events/durable.ts";
import { dieAfterCommit } from "../events/durable.testkit.ts";
import { settleDeferred } from "../events/index.ts";
import { handleBaileysEvent } from "../ingest/index.ts";
import { clearIngestCaches } from "../ingest/store.ts";
import { authenticate } from "../auth/tokens.ts";
import { createContactList, createContactListItem } from "../contactLists/service.ts";
import { recordWhatsappChecks } from "../contactLists/whatsapp-check.ts";
import { runCampaignPlanner, sendShipping, type PlannedMessage } from "./engine.ts";
import { getCampaign, getShipping, shippingPages } from "./repository.ts";
import type { ShippingItem } from "./schema.ts";

useLocalAws({ sqs: true, bucket: "atende-campaigns-engine-test" });
const w = companyWorld({ whatsapp: true });

let waSeq = 0;
/** A connection of its own (its pacer starts fresh) and a tag on `n` contacts' tickets there (the campaign's audience). */
async function taggedAudience(n: number): Promise<{ tagId: number; numbers: string[]; wa: number }> {
  const wa = (await makeWhatsapp(w.cid, { name: `Campanhas ${++waSeq}`, isDefault: false, number: `55119222${String(waSeq).padStart(5, "0")}` })).id;
  const tag = await api("POST", "/api/tags", { token: w.admin.token, body: { name: `Clientes ${Date.now()}${Math.random()}`, color: "#A4CCCC" } });
  expect(tag.status).toBe(200);
  const numbers: string[] = [];
  for (let i = 0; i < n; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, async (_, k) => {
        const c = await makeContact(w.cid, `Cliente ${i + k}`);
        const t = await makeTicket(w.cid, { contact: c, whatsappId: wa });
        const res = await api("PUT", `/api/ticket-tags/${t.id}/${tag.body.id}`, { token: w.admin.token });
        expect(res.status).toBe(200);
        numbers.push(c.number);
      }),
    );
  }
  return { tagId: tag.body.id, numbers, wa };
}

async function setSettings(settings: Record<string, unknown>) {
  const res = await api("POST", "/api/campaign-settings", { token: w.admin.token, body: { settings: { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [], ...settings } } });
  expect(res.status).toBe(200);
}

async function newCampaign(wa: number, body: Record<string, unknown>): Promise<number> {
  const res = await api("POST", "/api/campaigns", {
    token: w.admin.token,
    body: { name: "Black Friday", message1: "Olá {nome}, oferta para {numero}!", message2: "Oi {nome}, {cupom} hoje", whatsappId: wa, scheduledAt: new Date(T0).toISOString(), ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

// Every test's clock starts on a Monday 10:00 in São Paulo (inside the default business hours).
const T0 = Date.parse("2026-11-30T13:00:00Z");

/** Seeded random source. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Run {
  /** Every planned send with its time (epoch ms). */
  planned: { seq: number; at: number }[];
  /** What the consumer answered per delivery. */
  outcomes: string[];
}

/**
 * Runs the planner every minute from `from` until `until` (epoch ms) or the campaign stops, handing each planned send
 * to the consumer (`deliver` decides how: once, twice, dropped...).
 */
async function drive(
  campaignId: number,
  from: number,
  until: number,
  deliver: (m: PlannedMessage, run: Run) => Promise<void> = async (m, run) => {
    run.outcomes.push(await sendShipping(m.msg));
  },
  rand = seeded(3),
): Promise<Run & { last: number }> {
  const run: Run = { planned: [], outcomes: [] };
  let t = from;
  for (; t <= until; t += 60_000) {
    const out = await runCampaignPlanner(w.cid, campaignId, t, {
      rand,
      send: async (messages) => {
        for (const m of messages) await deliver(m, run);
      },
    });
    run.planned.push(...out.planned.map((p) => ({ seq: p.seq, at: p.at })));
    if (out.nextRunAt == null) break;
  }
  return { ...run, last: t };
}

async function shippings(campaignId: number): Promise<ShippingItem[]> {
  const out: ShippingItem[] = [];
  for await (const page of shippingPages(w.cid, campaignId, 1)) out.push(...page);
  return out;
}

/** The send commands the session runner got, per number (each command names one stored message). */
async function sendsPerNumber(wa: number): Promise<Map<string, string[]>> {
  const per = new Map<string, string[]>();
  const commands: { type: string; whatsappId: number; messageId: string }[] = [];
  for (let round = 0, empty = 0; round < 500 && empty < 3; round++) {
    const got = await drainCommands(wa);
    empty = got.length ? 0 : empty + 1;
    commands.push(...got);
  }
  for (const cmd of commands) {
    // The command queue is per shard: another test's connection may share it.
    if (cmd.type !== "send" || cmd.whatsappId !== wa) continue;
    const m = await getMessageById(w.cid, cmd.messageId);
    const number = m?.remoteJid.split("@")[0] ?? "?";
    per.set(number, [...(per.get(number) ?? []), m?.body ?? ""]);
  }
  return per;
}

const gapsOf = (planned: { at: number }[]) =>
  planned
    .map((p) => p.at)
    .sort((a, b) => a - b)
    .slice(1)
    .map((t, i, arr) => (t - (i === 0 ? planned.map((p) => p.at).sort((a, b) => a - b)[0] : arr[i - 1])) / 1000);

beforeEach(async () => {
  await setSettings({});
  if (w.wa) await drainCommands(w.wa);
  await drainDispatch();
});

describe("campaign engine", () => {
  it("sends each number exactly once at the connection's pace under SQS redelivery, and ends FINALIZADA", async () => {
    await setSettings({ messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 30, variables: [{ key: "cupom", value: "BF10" }] });
    const { tagId, numbers, wa } = await taggedAudience(40);
    const id = await newCampaign(wa, { tagListId: tagId });
    // Every message is delivered twice (the second after the first was handled) and once more at the same time.
    const run = await drive(id, T0, T0 + 60 * 60_000, async (m, r) => {
      const [a, b] = await Promise.all([sendShipping(m.msg), sendShipping(m.msg)]);
      r.outcomes.push(a, b, await sendShipping(m.msg));
    });
    const per = await sendsPerNumber(wa);
    const c = await getCampaign(w.cid, id);
    const gaps = gapsOf(run.planned);
    const report = `achieved gaps (s): ${gaps.join(" ")}`;
    expect(c?.status).toBe("FINALIZADA");
    expect(c?.completedAt).toBeTruthy();
    expect({ valid: c?.valid, delivered: c?.delivered, failed: c?.failed }).toEqual({ valid: 40, delivered: 40, failed: 0 });
    expect([...per.keys()].sort()).toEqual([...numbers].sort());
    expect([...per.values()].filter((b) => b.length !== 1)).toEqual([]);
    expect(run.outcomes.filter((o) => o === "sent")).toHaveLength(40);
    // Variables applied: {nome}, {numero} and the settings' {cupom}.
    for (const [number, [body]] of per) expect(body).toMatch(new RegExp(`^(Olá Cliente \\d+, oferta para ${number}!|Oi Cliente \\d+, BF10 hoje)$`));
    expect(new Set([...per.values()].map(([b]) => b.split(" ")[0])).size, "both variants used").toBe(2);
    // The pace: never closer than 5 s, a 30 s (+ jitter) pause after every 10th send.
    expect(Math.min(...gaps), report).toBeGreaterThanOrEqual(5);
    expect(gaps.filter((g) => g >= 30).length, report).toBe(3);
    expect(gaps.filter((_, i) => (i + 1) % 10 !== 0).every((g) => g <= 7.5), report).toBe(true);
  }, 240_000);

  it("a planner killed after planning loses nothing: the lost sends are planned again, every number once", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const { tagId, numbers, wa } = await taggedAudience(30);
    const id = await newCampaign(wa, { tagListId: tagId });
    // First run: the process dies after marking the sends queued and before any reaches the queue.
    const first = await drive(id, T0, T0, async () => {});
    expect(first.planned.length).toBe(30);
    // A new process: runs go on; the lost sends are planned again once stale (5 minutes), each sent once; some of
    // the old deliveries arrive late as well (they find the shipping planned again and send nothing).
    const late: PlannedMessage[] = [];
    const second = await drive(id, T0 + 60_000, T0 + 20 * 60_000, async (m, r) => {
      r.outcomes.push(await sendShipping(m.msg));
      late.push(m);
    });
    for (const m of late.slice(0, 10)) expect(await sendShipping(m.msg)).toBe("skipped");
    const per = await sendsPerNumber(wa);
    expect(second.planned.length).toBe(30);
    expect([...per.keys()].sort()).toEqual([...numbers].sort());
    expect([...per.values()].filter((b) => b.length !== 1)).toEqual([]);
    expect((await getCampaign(w.cid, id))?.status).toBe("FINALIZADA");
  }, 240_000);

  it("a delivery that died between storing the message and marking the shipping is finished by the redelivery, not sent again", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const { tagId, wa } = await taggedAudience(3);
    const id = await newCampaign(wa, { tagListId: tagId });
    const { outcomes } = await drive(id, T0, T0, async (m, r) => {
      const c = await getCampaign(w.cid, id);
      r.outcomes.push(await sendShipping(m.msg));
      // The shipping and the campaign's counts are put back as they were before the mark (the process died right
      // after the send).
      const s = await getShipping(w.cid, id, m.msg.seq);
      if (!s || !c) throw new Error("no shipping");
      await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.campaignShipping(w.cid, id, s.seq), ...s, status: "queued", deliveredAt: null } }));
      await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.campaign(w.cid, id), ...c } }));
      r.outcomes.push(await sendShipping(m.msg));
    });
    const per = await sendsPerNumber(wa);
    expect(outcomes).toEqual(["sent", "sent", "sent", "sent", "sent", "sent"]);
    expect((await getCampaign(w.cid, id))?.delivered).toBe(3);
    expect([...per.values()].map((b) => b.length), JSON.stringify([...per])).toEqual([1, 1, 1]);
  }, 240_000);

  it("cancel stops the sends still queued; restart goes on with the rest and nobody gets two", async () => {
    await setSettings({ messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 0 });
    const { tagId, numbers, wa } = await taggedAudience(30);
    const id = await newCampaign(wa, { tagListId: tagId });
    const held: PlannedMessage[] = [];
    // Ten go out, then the admin cancels; the sends already queued arrive after the cancel.
    await drive(id, T0, T0, async (m, r) => {
      if (r.outcomes.length < 10) r.outcomes.push(await sendShipping(m.msg));
      else held.push(m);
    });
    expect((await api("POST", `/api/campaigns/${id}/cancel`, { token: w.admin.token })).body.status).toBe("CANCELADA");
    const afterCancel = await Promise.all(held.map((m) => sendShipping(m.msg)));
    expect(afterCancel.every((o) => o === "released")).toBe(true);
    expect((await sendsPerNumber(wa)).size).toBe(10);
    expect((await api("POST", `/api/campaigns/${id}/restart`, { token: w.admin.token })).body.status).toBe("EM_ANDAMENTO");
    // The old run's messages delivered again after the restart send nothing.
    const run = await drive(id, T0 + 60_000, T0 + 30 * 60_000, async (m, r) => {
      r.outcomes.push(await sendShipping(m.msg));
      for (const old of held.slice(0, 3)) r.outcomes.push(await sendShipping(old.msg));
    });
    const per = await sendsPerNumber(wa);
    expect(run.planned.length).toBe(20);
    expect(per.size + 10).toBe(30);
    expect([...per.values()].filter((b) => b.length !== 1)).toEqual([]);
    const all = await shippings(id);
    expect(all.map((s) => s.status).filter((s) => s !== "delivered")).toEqual([]);
    expect(all.map((s) => s.number).sort()).toEqual([...numbers].sort());
    expect((await getCampaign(w.cid, id))?.status).toBe("FINALIZADA");
  }, 240_000);

  it("pauses by itself, with the reason shown, when 10% of the sends failed", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const { tagId, wa } = await taggedAudience(60);
    const id = await newCampaign(wa, { tagListId: tagId });
    let n = 0;
    // The session runner reports every 10th message as failed (ack -1), as it does when WhatsApp refuses one.
    const run = await drive(id, T0, T0 + 10 * 60_000, async (m, r) => {
      const outcome = await sendShipping(m.msg);
      r.outcomes.push(outcome);
      if (outcome === "sent" && ++n % 10 === 0) {
        const s = await getShipping(w.cid, id, m.msg.seq);
        const stored = await getMessageById(w.cid, s?.messageIds?.[0] ?? "");
        if (!stored) throw new Error("message not stored");
        const failed = await updateMessage(w.cid, stored.ticketId, stored.id, { ack: -1, sendError: "ERR_SENDING_WAPP_MSG" });
        const ticket = await getTicketItem(w.cid, stored.ticketId);
        if (!ticket) throw new Error("no ticket");
        await dispatch({ type: "message.updated", companyId: w.cid, message: failed, ticket });
      }
    }, seeded(5));
    const c = await getCampaign(w.cid, id);
    expect(run.planned.length).toBe(60);
    const report = `outcomes in order: ${run.outcomes.join(" ")}`;
    // 20 ended, 2 of them failed (10%): the next send does not go out, nor any after it.
    expect({ status: c?.status, pauseReason: c?.pauseReason, failed: c?.failed, delivered: c?.delivered }, report).toEqual({ status: "CANCELADA", pauseReason: "ERR_CAMPAIGN_FAILURE_RATE", failed: 2, delivered: 18 });
    expect(run.outcomes.filter((o) => o === "sent"), report).toHaveLength(20);
    expect((await api("GET", `/api/campaigns/${id}`, { token: w.admin.token })).body.pauseReason).toBe("ERR_CAMPAIGN_FAILURE_RATE");
  }, 240_000);

  it("a connection down pauses the campaign (shippings wait, none lost) and it resumes when the connection is back", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const { tagId, numbers, wa } = await taggedAudience(8);
    const id = await newCampaign(wa, { tagListId: tagId });
    const conn = await getWhatsappItem(w.cid, wa);
    const down = async (status: string) =>
      ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.whatsapp(w.cid, wa), _type: "whatsapp", ...conn, status } }));
    // Planned while connected; the connection drops before the sends arrive.
    const held: PlannedMessage[] = [];
    await drive(id, T0, T0, async (m) => {
      held.push(m);
    });
    await down("DISCONNECTED");
    expect(await Promise.all(held.map((m) => sendShipping(m.msg)))).toEqual(held.map(() => "released"));
    const paused = await drive(id, T0 + 60_000, T0 + 3 * 60_000);
    expect(paused.planned).toEqual([]);
    expect((await getCampaign(w.cid, id))?.pauseReason).toBe("ERR_CAMPAIGN_CONNECTION_DOWN");
    expect((await getCampaign(w.cid, id))?.status).toBe("EM_ANDAMENTO");
    await down("CONNECTED");
    await drive(id, T0 + 4 * 60_000, T0 + 10 * 60_000);
    const per = await sendsPerNumber(wa);
    const c = await getCampaign(w.cid, id);
    expect({ status: c?.status, pauseReason: c?.pauseReason, delivered: c?.delivered }).toEqual({ status: "FINALIZADA", pauseReason: null, delivered: 8 });
    expect([...per.keys()].sort()).toEqual([...numbers].sort());
  }, 240_000);

  it("confirmation mode: the confirmation goes first, the contact's reply brings the message; their ticket opens normally", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const wa = (await makeWhatsapp(w.cid, { name: "Confirmações", isDefault: false, number: "5511933334444" })).id;
    const contact = await makeContact(w.cid, "Joana");
    const t = await makeTicket(w.cid, { contact, whatsappId: wa });
    const tag = await api("POST", "/api/tags", { token: w.admin.token, body: { name: `Confirma ${Date.now()}`, color: "#A4CCCC" } });
    await api("PUT", `/api/ticket-tags/${t.id}/${tag.body.id}`, { token: w.admin.token });
    await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { status: "closed" } });
    const id = await newCampaign(wa, { tagListId: tag.body.id, confirmation: true, confirmationMessage1: "{nome}, posso enviar a oferta?", message2: null });
    await drive(id, T0, T0);
    expect((await sendsPerNumber(wa)).get(contact.number)).toEqual(["Joana, posso enviar a oferta?"]);
    let c = await getCampaign(w.cid, id);
    expect({ status: c?.status, awaiting: c?.awaiting, delivered: c?.delivered }).toEqual({ status: "EM_ANDAMENTO", awaiting: 1, delivered: 0 });
    // The campaign's own ticket does not wait for an agent.
    expect((await shippings(id))[0].confirmationRequestedAt).toBeTruthy();
    // The reply: a pending ticket as any customer's message opens, and the real message is queued.
    const reply = await ingestInbound(w.cid, wa, contact, "Sim");
    expect(reply.ticket.status).toBe("pending");
    // Queued within 9 s of the reply.
    const queued = await receiveDispatch(1);
    expect(queued).toHaveLength(1);
    await dispatchHandler({ Records: queued });
    expect((await sendsPerNumber(wa)).get(contact.number)).toEqual([`Olá Joana, oferta para ${contact.number}!`]);
    c = await getCampaign(w.cid, id);
    expect({ status: c?.status, awaiting: c?.awaiting, delivered: c?.delivered }).toEqual({ status: "FINALIZADA", awaiting: 0, delivered: 1 });
  }, 240_000);

  /** A campaign with confirmation to one contact of connection `wa` (tagged through `ticket`), its confirmation sent. */
  async function confirmationSent(wa: number, contact: { number: string }, ticketId: number, extra: Record<string, unknown> = {}): Promise<number> {
    const tag = await api("POST", "/api/tags", { token: w.admin.token, body: { name: `Confirma ${Date.now()}${Math.random()}`, color: "#A4CCCC" } });
    await api("PUT", `/api/ticket-tags/${ticketId}/${tag.body.id}`, { token: w.admin.token });
    const id = await newCampaign(wa, { tagListId: tag.body.id, confirmation: true, confirmationMessage1: "{nome}, posso enviar a oferta?", message2: null, ...extra });
    await drive(id, T0, T0);
    expect((await sendsPerNumber(wa)).get(contact.number)).toEqual([expect.stringContaining("posso enviar a oferta?")]);
    return id;
  }

  it("confirmation on the contact's open ticket: the reply there brings the message (the wait is on the ticket the ingest writes)", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const wa = (await makeWhatsapp(w.cid, { name: "Confirmações abertas", isDefault: false, number: "5511933335555" })).id;
    const contact = await makeContact(w.cid, "Rita");
    // The contact speaks first: the ingest keeps its contact and its open ticket.
    const { ticket } = await ingestInbound(w.cid, wa, contact, "Bom dia");
    const id = await confirmationSent(wa, contact, ticket.id);
    expect((await getTicketItem(w.cid, ticket.id, true))?.campaignWait).toMatchObject({ campaignId: id, kind: "confirmation" });
    const reply = await ingestInbound(w.cid, wa, contact, "Pode mandar");
    expect(reply.ticket.id).toBe(ticket.id);
    expect(reply.ticket.campaignWait ?? null).toBeNull();
    const queued = await receiveDispatch(1);
    expect(queued).toHaveLength(1);
    await dispatchHandler({ Records: queued });
    expect((await sendsPerNumber(wa)).get(contact.number)).toEqual([`Olá Rita, oferta para ${contact.number}!`]);
    // Another message from the contact answers nothing more.
    await ingestInbound(w.cid, wa, contact, "Obrigada");
    expect(await receiveDispatch(0)).toEqual([]);
    expect((await getCampaign(w.cid, id))?.status).toBe("FINALIZADA");
  }, 240_000);

  it("the process dies between storing the reply and handling it: the tick applies the confirmation later, exactly once", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const wa = (await makeWhatsapp(w.cid, { name: "Confirmações tick", isDefault: false, number: "5511933336666" })).id;
    const contact = await makeContact(w.cid, "Bruna");
    const t = await makeTicket(w.cid, { contact, whatsappId: wa });
    await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { status: "closed" } });
    const id = await confirmationSent(wa, contact, t.id);
    // The ingest's transaction (the reply stored with its pending run) commits, then the process dies.
    const kill = dieAfterCommit((items) => items.some((it) => (it.Put?.Item as { listener?: string } | undefined)?.listener === "campaigns.replies"));
    await handleBaileysEvent({ companyId: w.cid, whatsappId: wa }, "messages.upsert", {
      type: "notify",
      messages: [{ key: { fromMe: false, remoteJid: `${contact.number}@s.whatsapp.net`, id: "3EB0CAMPDIES0001" }, message: { conversation: "Sim" }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: contact.name }],
    }).catch(() => undefined);
    await settleDeferred();
    expect(kill.died()).toBe(true);
    vi.restoreAllMocks();
    clearIngestCaches();
    // Nothing was applied: the shipping still waits, nothing is on the dispatch queue.
    expect(await getMessageById(w.cid, "3EB0CAMPDIES0001")).toMatchObject({ body: "Sim" });
    expect((await shippings(id))[0]).toMatchObject({ status: "awaiting", repliedBy: null });
    expect(await receiveDispatch(0)).toEqual([]);
    // The minute tick, after the grace: the confirmation is applied, once.
    const later = Date.now() + RUN_GRACE_MS + 1_000;
    expect(await redriveDurable(later)).toBeGreaterThanOrEqual(1);
    expect(await redriveDurable(later)).toBe(0);
    expect((await shippings(id))[0]).toMatchObject({ status: "queued", repliedBy: "3EB0CAMPDIES0001" });
    const queued = await receiveDispatch(1);
    expect(queued).toHaveLength(1);
    await dispatchHandler({ Records: queued });
    await dispatchHandler({ Records: queued });
    // Another message of the contact confirms nothing again.
    await ingestInbound(w.cid, wa, contact, "Sim, de novo");
    expect(await receiveDispatch(0)).toEqual([]);
    expect((await sendsPerNumber(wa)).get(contact.number)).toEqual([`Olá Bruna, oferta para ${contact.number}!`]);
    const c = await getCampaign(w.cid, id);
    expect({ status: c?.status, awaiting: c?.awaiting, delivered: c?.delivered }).toEqual({ status: "FINALIZADA", awaiting: 0, delivered: 1 });
  }, 240_000);

  it("the sender dies right after marking the confirmation sent: the contact's wait was written with it, and a reply before any redelivery brings the message", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const wa = (await makeWhatsapp(w.cid, { name: "Confirmações envio", isDefault: false, number: "5511933338888" })).id;
    const contact = await makeContact(w.cid, "Sandra");
    const t = await makeTicket(w.cid, { contact, whatsappId: wa });
    const tag = await api("POST", "/api/tags", { token: w.admin.token, body: { name: `Confirma ${Date.now()}${Math.random()}`, color: "#A4CCCC" } });
    await api("PUT", `/api/ticket-tags/${t.id}/${tag.body.id}`, { token: w.admin.token });
    await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { status: "closed" } });
    const id = await newCampaign(wa, { tagListId: tag.body.id, confirmation: true, confirmationMessage1: "{nome}, posso enviar a oferta?", message2: null });
    // The write that marks the shipping awaiting commits, then the sender's process dies.
    const marksAwaiting = (it: Record<string, Record<string, unknown>>) =>
      Object.values((it.Update?.ExpressionAttributeNames ?? {}) as Record<string, string>).includes("confirmationRequestedAt");
    const kill = dieAfterCommit((items) => items.some(marksAwaiting));
    await drive(id, T0, T0).catch(() => undefined);
    await settleDeferred();
    expect(kill.died()).toBe(true);
    vi.restoreAllMocks();
    clearIngestCaches();
    expect((await shippings(id))[0]).toMatchObject({ status: "awaiting" });
    expect((await sendsPerNumber(wa)).get(contact.number)).toEqual(["Sandra, posso enviar a oferta?"]);
    // The contact answers before the queue redelivers anything: the wait is there, the real message is queued.
    await ingestInbound(w.cid, wa, contact, "Sim");
    const queued = await receiveDispatch(1);
    expect(queued).toHaveLength(1);
    await dispatchHandler({ Records: queued });
    expect((await sendsPerNumber(wa)).get(contact.number)).toEqual([`Olá Sandra, oferta para ${contact.number}!`]);
    expect((await shippings(id))[0]).toMatchObject({ status: "delivered" });
  }, 240_000);

  it("a campaign that closes replies: the reply's ticket is closed at once, the next message's ticket stays", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const wa = (await makeWhatsapp(w.cid, { name: "Fecha respostas", isDefault: false, number: "5511933337777" })).id;
    const contact = await makeContact(w.cid, "Carla");
    const t = await makeTicket(w.cid, { contact, whatsappId: wa });
    const tag = await api("POST", "/api/tags", { token: w.admin.token, body: { name: `Fecha ${Date.now()}`, color: "#A4CCCC" } });
    await api("PUT", `/api/ticket-tags/${t.id}/${tag.body.id}`, { token: w.admin.token });
    await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { status: "closed" } });
    const id = await newCampaign(wa, { tagListId: tag.body.id, message2: null, closeTicketOnReply: true });
    await drive(id, T0, T0);
    expect((await shippings(id))[0]).toMatchObject({ status: "delivered", closedBy: null });
    // The reply's ticket is closed at once (so no open ticket is left for it).
    await expect(ingestInbound(w.cid, wa, contact, "Recebi")).rejects.toThrow("the reply opened no ticket");
    expect((await shippings(id))[0].closedBy).toMatch(/^3EB0CAMPREPLY/);
    const second = await ingestInbound(w.cid, wa, contact, "Tenho uma dúvida");
    expect(second.ticket.status).toBe("pending");
  }, 240_000);

  it("a file list's files go first, in the list's order, then the message: each part once per number under redelivery", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const { tagId, numbers, wa } = await taggedAudience(3);
    const created = await api("POST", "/api/files", { token: w.admin.token, body: { name: "Catálogo", message: "Nossos preços", options: [{ name: "Tabela" }, { name: "Sem arquivo" }, { name: "Foto" }] } });
    expect(created.status).toBe(200);
    const listId = created.body.id as number;
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const up = (optionId: number, name: string, type: string, data: Buffer) =>
      api("POST", `/api/files/uploadList/${listId}?fileId=${optionId}`, { token: w.admin.token, ...multipartBody([{ field: "file", name, type, data }]) });
    expect((await up(1, "tabela.pdf", "application/pdf", pdf)).status).toBe(200);
    expect((await up(3, "foto.png", "image/png", png)).status).toBe(200);
    const id = await newCampaign(wa, { tagListId: tagId, fileListId: listId, message2: null });
    // Every send delivered twice (SQS redelivery).
    await drive(id, T0, T0 + 3 * 60_000, async (m, r) => {
      r.outcomes.push(await sendShipping(m.msg), await sendShipping(m.msg));
    });
    const per = new Map<string, { body: string; mediaName: string | null; mediaType: string }[]>();
    for (let round = 0, empty = 0; round < 100 && empty < 3; round++) {
      const got = await drainCommands(wa);
      empty = got.length ? 0 : empty + 1;
      for (const cmd of got) {
        if (cmd.type !== "send" || cmd.whatsappId !== wa) continue;
        const msg = await getMessageById(w.cid, cmd.messageId);
        const number = msg?.remoteJid.split("@")[0] ?? "?";
        per.set(number, [...(per.get(number) ?? []), { body: msg?.body ?? "", mediaName: msg?.mediaName ?? null, mediaType: msg?.mediaType ?? "" }]);
      }
    }
    expect([...per.keys()].sort()).toEqual([...numbers].sort());
    for (const n of numbers) {
      const [nome] = [(await shippings(id)).find((x) => x.number === n)?.name];
      expect(per.get(n)).toEqual([
        { body: "", mediaName: "tabela.pdf", mediaType: "application" },
        { body: "", mediaName: "foto.png", mediaType: "image" },
        { body: `Olá ${nome}, oferta para ${n}!`, mediaName: null, mediaType: "chat" },
      ]);
    }
    const c = await getCampaign(w.cid, id);
    expect({ status: c?.status, delivered: c?.delivered }).toEqual({ status: "FINALIZADA", delivered: 3 });
  }, 240_000);

  it("a contact list's valid numbers are the audience: each valid number once, the invalid ones never", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const { wa } = await taggedAudience(0);
    const auth = await authenticate(w.admin.token);
    const list = await createContactList(auth, { name: "Clientes da loja" });
    const items: Awaited<ReturnType<typeof createContactListItem>>[] = [];
    for (let i = 0; i < 6; i++) items.push(await createContactListItem(auth, { contactListId: list.id, name: `Pessoa ${i}`, number: `551198877${String(i).padStart(4, "0")}`, email: `p${i}@ex.com` }));
    // The WhatsApp check answers: the even ones are on WhatsApp.
    await recordWhatsappChecks(w.cid, list.id, items.map((it, i) => ({ id: it.id, valid: i % 2 === 0 })));
    const id = await newCampaign(wa, { contactListId: list.id, message1: "Olá {nome} ({email})", message2: null });
    await drive(id, T0, T0 + 5 * 60_000, async (m, r) => {
      r.outcomes.push(await sendShipping(m.msg), await sendShipping(m.msg));
    });
    const per = await sendsPerNumber(wa);
    expect([...per.entries()].sort()).toEqual([0, 2, 4].map((i) => [items[i].number, [`Olá Pessoa ${i} (p${i}@ex.com)`]]));
    const c = await getCampaign(w.cid, id);
    expect({ status: c?.status, valid: c?.valid, delivered: c?.delivered }).toEqual({ status: "FINALIZADA", valid: 3, delivered: 3 });
  }, 240_000);

  it("what a send and a planner run cost: settings read only for a text naming a variable, nothing read twice, the pacer saved once per run", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [{ key: "cupom", value: "BF10" }] });
    const plain = await taggedAudience(4);
    const plainId = await newCampaign(plain.wa, { tagListId: plain.tagId, message1: "Olá {nome}, oferta para {numero}!", message2: "" });
    const withVariable = await taggedAudience(4);
    const variableId = await newCampaign(withVariable.wa, { tagListId: withVariable.tagId, message1: "Oi {nome}, {cupom} hoje", message2: "" });
    for (const [id, vars] of [
      [plainId, 0],
      [variableId, 1],
    ] as const) {
      // The first run writes the audience; the sends of the second are counted.
      await drive(id, T0, T0, async () => {});
      const held: PlannedMessage[] = [];
      const planner = countDdbCalls();
      const out = await runCampaignPlanner(w.cid, id, T0 + 6 * 60_000, { send: async (ms) => void held.push(...ms) });
      planner.remove();
      expect(out.planned).toHaveLength(4);
      expect(planner.byPurpose.get("PutItem: campaign camppace"), "one pacer save for the run's 4 slots").toBe(1);
      const calls = countDdbCalls();
      for (const m of held) expect(await sendShipping(m.msg)).toBe("sent");
      calls.remove();
      const per = (label: string) => (calls.byPurpose.get(label) ?? 0) / held.length;
      expect(per("Query: campaign campset"), `settings reads per send, ${vars ? "with" : "without"} a variable`).toBe(vars);
      // Fresh ids: no lookup of an earlier stored part; the connection and the contact are read once, by the engine
      // and the contact's lookup.
      expect(per("Query: message ref"), "stored-part lookups per send").toBe(0);
      expect(per("GetItem: connection"), "connection reads per send").toBe(1);
      expect(per("GetItem: contact"), "contact reads per send").toBe(1);
    }
    const [a, b] = [await sendsPerNumber(plain.wa), await sendsPerNumber(withVariable.wa)];
    expect([...a.keys(), ...b.keys()].sort()).toEqual([...plain.numbers, ...withVariable.numbers].sort());
    for (const [number, bodies] of a) expect(bodies).toEqual([expect.stringMatching(new RegExp(`^Olá Cliente \\d+, oferta para ${number}!$`))]);
    for (const bodies of b.values()) expect(bodies).toEqual([expect.stringMatching(/^Oi Cliente \d+, BF10 hoje$/)]);
  }, 240_000);

  it("through the real dispatch queue: the timer's planner queues the sends and the consumer sends them", async () => {
    await setSettings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const { tagId, numbers, wa } = await taggedAudience(5);
    const id = await newCampaign(wa, { tagListId: tagId });
    await runCampaignPlanner(w.cid, id, T0);
    const records = await receiveDispatch(5);
    expect(records).toHaveLength(5);
    // Delivered twice by SQS.
    await dispatchHandler({ Records: records });
    await dispatchHandler({ Records: records });
    const per = await sendsPerNumber(wa);
    expect([...per.keys()].sort()).toEqual([...numbers].sort());
    expect([...per.values()].map((b) => b.length)).toEqual([1, 1, 1, 1, 1]);
  }, 240_000);
});

/** Receives (and deletes) what waits on the dispatch queue, waiting up to 15 s for `expected` messages. */
async function receiveDispatch(expected: number): Promise<{ messageId: string; body: string }[]> {
  const url = getConfig().DISPATCH_QUEUE_URL!;
  const out: { messageId: string; body: string }[] = [];
  for (let i = 0; i < 15 && out.length < expected; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 30 }));
    if (!res.Messages?.length) continue;
    for (const m of res.Messages) {
      out.push({ messageId: m.MessageId!, body: m.Body! });
      await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return out;
}

/** Empties the dispatch queue (what an earlier test left). */
async function drainDispatch(): Promise<void> {
  const url = getConfig().DISPATCH_QUEUE_URL!;
  for (let i = 0; i < 20; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!res.Messages?.length) break;
    for (const m of res.Messages) await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
  }
}
