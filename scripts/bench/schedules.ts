/**
 * Scheduled messages at the minute (`npm run bench -- --only=schedules`): `companies` × `perCompany` schedules (default
 * 1,000 × 10), each to its own contact, all due in the same minute. At that minute the tick (`functions/src/jobs/tick.ts`,
 * called with the minute's time as EventBridge would) claims them through the due-time index and fills the dispatch
 * queue; `consumers` workers stand in for Lambda's concurrent invocations of `functions/src/jobs/dispatch.ts` (ten
 * records each, as the event source mapping delivers them), beside the local stack's own poller. Reports every
 * schedule's lateness (`sentAt - sendAt`), that each is ENVIADA with exactly one message in its ticket, and the
 * DynamoDB calls per schedule from the tick to the last send (the sends' own: tickets opened, messages, frames), by
 * command and by what they touch, the schedules sent per second and the CPU per schedule of this process (the local
 * stack with its SQS and session runner) and of DynamoDB Local, with the machine's load (figures are the shared
 * machine's). Companies, connections and contacts are written in batches (as an import leaves them); the schedules
 * through the repository. The connections are marked CONNECTED without a session: the runner's failed deliveries that
 * follow are not counted.
 *
 * Then the floor ({@link bareScheduleSend}): the same number of schedules sent by the fewest DynamoDB writes a send
 * can make, at the same concurrency: the claim, the ticket's id and one transaction with the new ticket, its
 * active-ticket marker, the message, its id reference and the schedule ENVIADA. Its CPU per schedule (this process and
 * DynamoDB Local) and the time 10,000 would take on 2 cores at that CPU tell whether the 60 s target is reachable on
 * this machine at all.
 */
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { DeleteMessageBatchCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { nextId } from "../../shared/src/db/counters.ts";
import { messageRecord } from "../../shared/src/messages/repository.ts";
import { MessageItem } from "../../shared/src/messages/schema.ts";
import { activeTicketRecord, ticketRecord } from "../../shared/src/tickets/repository.ts";
import { TicketItem } from "../../shared/src/tickets/schema.ts";
import { getConfig } from "../../shared/src/config.ts";
import { countDdbCalls } from "../../shared/src/ingest/calls.testkit.ts";
import { listMessages } from "../../shared/src/messages/repository.ts";
import { listSchedules, putNewSchedule } from "../../shared/src/schedules/repository.ts";
import { pendingSchedule } from "../../shared/src/schedules/schema.ts";
import { sqsClient } from "../../shared/src/sqs/enqueue.ts";
import { makeWhatsapp } from "../../shared/src/tickets/fixtures.testkit.ts";
import { contactRecord, markerRecord } from "../../shared/src/contacts/repository.ts";
import { ContactItem } from "../../shared/src/contacts/schema.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { contactIndexItems } from "../../shared/src/search/writes.ts";
import { cpuMs, dynamoPids } from "./http-load.ts";
import { batchPut } from "./seed.ts";
import { load, summarize } from "./stats.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls per schedule by what they read or write, ids and times folded (`n`), the ones under 0.05 left out. */
function byPurpose(counts: Map<string, number>, total: number): Record<string, number> {
  const folded = new Map<string, number>();
  for (const [label, n] of counts) {
    const key = label.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "<uuid>").replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>").slice(0, 120);
    folded.set(key, (folded.get(key) ?? 0) + n);
  }
  return Object.fromEntries([...folded].filter(([, n]) => n / total >= 0.05).sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, Math.round((n / total) * 100) / 100]));
}

/** The connection id the bare sends' tickets and markers name (none of the seeded connections: no real ticket is touched). */
const BARE_WHATSAPP_ID = 999_999;

/**
 * One schedule sent by the fewest DynamoDB calls a send can make, written with the product's own item builders:
 * the tick's claim (one conditional UpdateItem of the schedule), the new ticket's id (`nextId`, one UpdateItem), and
 * one transaction: the active-ticket marker and the ticket (both put if absent), the message and its id reference,
 * and the schedule AGENDADA → ENVIADA with its due-index entry removed. Left out: the realtime frames, the listeners
 * (summaries, timers, lanes, counters, webhooks, push), the search index, the contact and connection reads and the
 * outbound command to the session.
 */
async function bareScheduleSend(s: { companyId: number; id: number; contactId: number; dueKey: string }): Promise<void> {
  const now = new Date().toISOString();
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.schedule(s.companyId, s.id),
      UpdateExpression: "SET #status = :agendada, GSI1SK = :claim, claims = :one, updatedAt = :now",
      ConditionExpression: "GSI1SK = :seen AND #status = :pendente",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":agendada": "AGENDADA", ":pendente": "PENDENTE", ":claim": `${now}#claim`, ":seen": s.dueKey, ":one": 1, ":now": now },
    }),
  );
  const ticket = TicketItem.parse({
    id: await nextId(s.companyId, "ticket"),
    uuid: randomUUID(),
    companyId: s.companyId,
    status: "open",
    contactId: s.contactId,
    whatsappId: BARE_WHATSAPP_ID,
    queueId: null,
    userId: null,
    isGroup: false,
    version: 0,
    lastMessage: "Lembrete agendado",
    createdAt: now,
    updatedAt: now,
  });
  const messageId = `BARESCHED${s.companyId}x${s.id}`;
  const m = MessageItem.parse({ id: messageId, ticketId: ticket.id, companyId: s.companyId, contactId: s.contactId, whatsappId: BARE_WHATSAPP_ID, remoteJid: "5511900000000@s.whatsapp.net", body: "Lembrete agendado", fromMe: true, ack: 0, waTimestamp: now, createdAt: now, updatedAt: now });
  const msgKey = keys.message(s.companyId, ticket.id, m.waTimestamp, messageId);
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: activeTicketRecord(ticket), ConditionExpression: "attribute_not_exists(PK)" } },
        { Put: { TableName: tableName(), Item: ticketRecord(ticket), ConditionExpression: "attribute_not_exists(PK)" } },
        { Put: { TableName: tableName(), Item: messageRecord(m) } },
        { Put: { TableName: tableName(), Item: { ...keys.messageRef(s.companyId, messageId, ticket.id), _type: "messageRef", ticketId: ticket.id, messageSK: msgKey.SK, createdAt: now } } },
        {
          Update: {
            TableName: tableName(),
            Key: keys.schedule(s.companyId, s.id),
            UpdateExpression: "SET #status = :enviada, sentAt = :now, messageId = :m, ticketId = :t, updatedAt = :now REMOVE GSI1PK, GSI1SK",
            ConditionExpression: "#status = :agendada",
            ExpressionAttributeNames: { "#status": "status" },
            ExpressionAttributeValues: { ":enviada": "ENVIADA", ":agendada": "AGENDADA", ":now": now, ":m": messageId, ":t": ticket.id },
          },
        },
      ],
    }),
  );
}

export async function benchSchedules(opts: { companies?: number; perCompany?: number; consumers?: number; firstCompanyId?: number }) {
  const companies = opts.companies ?? 1000;
  const perCompany = opts.perCompany ?? 10;
  const total = companies * perCompany;
  const base = opts.firstCompanyId ?? 800_000 + Math.floor(Math.random() * 100_000) * 10;
  const cids = Array.from({ length: companies }, (_, i) => base + i);

  // Seed: per company its item (on one plan: counters and variables read it, as for a real company), a CONNECTED
  // default connection and `perCompany` contacts, written in batches as a contact import would leave them.
  const s0 = performance.now();
  const at = new Date().toISOString();
  const planId = 900_000 + Math.floor(Math.random() * 90_000);
  const tenants: Record<string, unknown>[] = [{ ...keys.plan(planId), _type: "plan", id: planId, name: `Plano ${planId}`, users: 10, connections: 10, queues: 10, valueCents: 3000, useSchedules: true, createdAt: at, updatedAt: at }];
  const contacts = new Map<number, number[]>();
  cids.forEach((cid, i) => {
    tenants.push({ ...keys.company(cid), _type: "company", id: cid, name: `Empresa ${cid}`, email: `c${cid}@bench`, phone: "", planId, status: true, dueDate: new Date(Date.now() + 365 * 86_400_000).toISOString(), recurrence: "MENSAL", createdAt: at, updatedAt: at });
    const ids: number[] = [];
    for (let k = 0; k < perCompany; k++) {
      const number = `5511${String(i).padStart(5, "0")}${String(k).padStart(4, "0")}`;
      const jid = `${number}@s.whatsapp.net`;
      const c = ContactItem.parse({ id: k + 1, companyId: cid, uuid: randomUUID(), name: `Cliente ${k}`, number, email: "", profilePicUrl: "", isGroup: false, jids: [jid], createdAt: at, updatedAt: at });
      tenants.push(contactRecord(c), markerRecord(cid, c.id, { kind: "phone", value: number }), markerRecord(cid, c.id, { kind: "jid", value: jid }), ...contactIndexItems(c));
      ids.push(c.id);
    }
    contacts.set(cid, ids);
  });
  await batchPut(tenants);
  await load(companies, 16, async (i) => {
    await makeWhatsapp(cids[i], { status: "CONNECTED", isDefault: true });
  });
  // All due at the same whole minute, far enough ahead for the schedules to be written first: as long as the contacts
  // took (one write each, like a schedule's, at half the concurrency) and a tenth, plus 10 s; the wait to the whole
  // minute adds up to a minute more.
  const writeEstimateMs = Math.max(total * 2, (performance.now() - s0) * 1.1);
  const sendAt = new Date(Math.ceil((Date.now() + writeEstimateMs + 10_000) / 60_000) * 60_000);
  const secs = (ms: number) => (ms / 1000).toFixed(1);
  console.log(`schedules: ${companies} companies, connections and ${total} contacts in ${secs(performance.now() - s0)} s; all due at ${sendAt.toISOString()} (in ${secs(sendAt.getTime() - Date.now())} s)`);
  const now = new Date().toISOString();
  await load(total, 32, async (i) => {
    const cid = cids[Math.floor(i / perCompany)];
    const item = pendingSchedule(
      { id: (i % perCompany) + 1, companyId: cid, contactId: contacts.get(cid)![i % perCompany], ticketId: null, userId: null, body: `Lembrete agendado número ${i}`, sendAt: sendAt.toISOString() },
      now,
    );
    await putNewSchedule(item);
  });
  const seedSeconds = Math.round((performance.now() - s0) / 100) / 10;
  if (Date.now() >= sendAt.getTime()) throw new Error("seeding outran the chosen minute: lower --scheduleCompanies");
  console.log(`schedules: ${total} schedules written, ${secs(sendAt.getTime() - Date.now())} s before their minute`);
  await sleep(sendAt.getTime() - Date.now());

  // The minute: the tick claims and queues; the consumers send.
  const calls = countDdbCalls();
  const ddbPids = dynamoPids(Number(new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB ?? "http://localhost:0").port));
  const ddbCpu = () => ddbPids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const node0 = process.cpuUsage();
  const ddb0 = ddbCpu();
  const load0 = loadavg()[0];
  const url = getConfig().DISPATCH_QUEUE_URL!;
  const { handler: tick } = await import("../../functions/src/jobs/tick.ts");
  const { handler: consume } = await import("../../functions/src/jobs/dispatch.ts");
  let ticking = true;
  const t0 = performance.now();
  const tickRun = tick({ "detail-type": "Scheduled Event", source: "aws.events", time: sendAt.toISOString() }).finally(() => (ticking = false));
  let handled = 0;
  const consumer = async () => {
    let idle = 0;
    while (idle < 3 || ticking) {
      const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 60 }));
      if (!res.Messages?.length) {
        idle++;
        continue;
      }
      idle = 0;
      const out = await consume({ Records: res.Messages.map((m) => ({ messageId: m.MessageId!, body: m.Body! })) });
      const failed = new Set(out.batchItemFailures.map((f) => f.itemIdentifier));
      const done = res.Messages.filter((m) => !failed.has(m.MessageId!));
      handled += done.length;
      if (done.length) await sqsClient().send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: done.map((m, n) => ({ Id: String(n), ReceiptHandle: m.ReceiptHandle! })) }));
    }
  };
  // A line a minute while it drains (a long run can be read before its end): handled here, CPU per handled record.
  const progress = setInterval(() => {
    const c = process.cpuUsage(node0);
    const per = (ms: number) => (handled ? Math.round(ms / handled) : "-");
    console.log(`schedules: ${handled} of ${total} handled by the bench's consumers after ${secs(performance.now() - t0)} s; CPU ms per handled: Node ${per((c.user + c.system) / 1000)}, DynamoDB Local ${per(ddbCpu() - ddb0)}; load ${loadavg()[0].toFixed(1)}`);
  }, 60_000);
  const tickResult = (await Promise.all([tickRun, ...Array.from({ length: opts.consumers ?? 8 }, consumer)]))[0];
  clearInterval(progress);
  const drainedMs = performance.now() - t0;
  const drainedSeconds = Math.round(drainedMs / 100) / 10;
  const nodeCpu = process.cpuUsage(node0);
  const cpu = { nodeMs: (nodeCpu.user + nodeCpu.system) / 1000, ddbMs: ddbCpu() - ddb0 };
  const load1 = loadavg()[0];
  calls.remove();

  // Every schedule sent once: ENVIADA, one message in its ticket; lateness from its time.
  const stored = (await Promise.all(cids.map((cid) => listSchedules(cid)))).flat();
  const sent = stored.filter((s) => s.status === "ENVIADA" && s.sentAt);
  const lateness = sent.map((s) => Date.parse(s.sentAt!) - Date.parse(s.sendAt));
  let messages = 0;
  let duplicated = 0;
  await load(sent.length, 32, async (i) => {
    const s = sent[i];
    const n = (await listMessages(s.companyId, s.ticketId!, { limit: 10 })).messages.length;
    messages += n;
    if (n !== 1) duplicated++;
  });
  const late = summarize(lateness);

  // The floor: as many bare sends (`bareScheduleSend`) of fresh PENDENTE schedules (ids after the real ones, written
  // before the clock starts), `consumers` × 10 in flight as the consumers hold them.
  const bareDue = new Date(Date.now() - 60_000).toISOString();
  const bare = Array.from({ length: total }, (_, i) => {
    const cid = cids[Math.floor(i / perCompany)];
    const id = perCompany + (i % perCompany) + 1;
    const item = pendingSchedule({ id, companyId: cid, contactId: contacts.get(cid)![i % perCompany], ticketId: null, userId: null, body: "Lembrete agendado", sendAt: bareDue }, bareDue);
    return { item, dueKey: keys.scheduleDueIndex(0, bareDue, cid, id).GSI1SK };
  });
  await load(total, 32, async (i) => putNewSchedule(bare[i].item));
  const bareCalls = countDdbCalls();
  const bareNode0 = process.cpuUsage();
  const bareDdb0 = ddbCpu();
  const b0 = performance.now();
  await load(total, (opts.consumers ?? 8) * 10, async (i) => {
    const { item, dueKey } = bare[i];
    await bareScheduleSend({ companyId: item.companyId, id: item.id, contactId: item.contactId, dueKey });
  });
  const bareMs = performance.now() - b0;
  const bareNode = process.cpuUsage(bareNode0);
  const bareCpu = { node: (bareNode.user + bareNode.system) / 1000 / total, ddb: (ddbCpu() - bareDdb0) / total };
  bareCalls.remove();
  const round1 = (n: number) => Math.round(n * 10) / 10;
  return {
    schedules: total,
    companies,
    seedSeconds,
    tick: tickResult,
    handledByBenchConsumers: handled,
    sent: sent.length,
    notSent: stored.length - sent.length,
    messagesStored: messages,
    ticketsWithOtherThanOneMessage: duplicated,
    latenessMs: { p50: late.p50, p99: late.p99, max: late.max },
    lastWithin60s: late.max <= 60_000,
    drainedSeconds,
    schedulesPerSecond: Math.round((total / (drainedMs / 1000)) * 10) / 10,
    /** CPU per schedule from the minute to the drain: this process (the local stack, its SQS and runner) and DynamoDB Local. */
    cpuMsPerSchedule: { node: Math.round(cpu.nodeMs / total), dynamodb: ddbPids.length ? Math.round(cpu.ddbMs / total) : null },
    loadAverage: { atTheMinute: Math.round(load0 * 10) / 10, atTheDrain: Math.round(load1 * 10) / 10 },
    ddbCallsPerSchedule: Math.round((calls.total / total) * 10) / 10,
    ddbCallsByCommand: Object.fromEntries([...calls.byCommand].map(([k, v]) => [k, Math.round((v / total) * 100) / 100])),
    ddbCallsByPurpose: byPurpose(calls.byPurpose, total),
    /** The floor: the same schedules sent by the fewest writes (`bareScheduleSend`), and what 10,000 would take on 2 cores at its CPU. */
    bare: {
      ddbCallsPerSchedule: round1(bareCalls.total / total),
      schedulesPerSecond: round1(total / (bareMs / 1000)),
      cpuMsPerSchedule: { node: round1(bareCpu.node), dynamodb: ddbPids.length ? round1(bareCpu.ddb) : null },
      secondsFor10kOn2Cores: ddbPids.length ? Math.round((10_000 * (bareCpu.node + bareCpu.ddb)) / 2 / 1000) : null,
      /** The same for the product's send, at the CPU measured above. */
      productSecondsFor10kOn2Cores: ddbPids.length ? Math.round((10_000 * (cpu.nodeMs + cpu.ddbMs)) / total / 2 / 1000) : null,
    },
  };
}
