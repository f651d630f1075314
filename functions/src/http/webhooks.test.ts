/**
 * Company webhooks through the real Lambda handlers, the webhooks queue's consumer and the minute tick's timers,
 * against a plain HTTP receiver: CRUD with each profile's rights and cross-company isolation, the secret shown once
 * and regenerable, the payload and its signature checked with the recipe of docs/product/webhooks.md, a retry after
 * a 500, a receiver down past the retry window (controlled clock), events of one company never reaching another's
 * webhook, and the URL rules in the cloud (https only, no private address at send time).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getConfig, resetConfig } from "../../../shared/src/config.ts";
import { ddb } from "../../../shared/src/db/client.ts";
import { keys } from "../../../shared/src/db/keys.ts";
import { redriveDurable, RUN_GRACE_MS } from "../../../shared/src/events/durable.ts";
import { sqsClient } from "../../../shared/src/sqs/enqueue.ts";
import { makeContact, makeTicket } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { runDueTimers } from "../../../shared/src/timers/index.ts";
import { attemptDelivery, RETRY_WINDOW_MS } from "../../../shared/src/webhooks/delivery.ts";
import { getDelivery, getWebhook } from "../../../shared/src/webhooks/repository.ts";
import { DeliveriesPage, Webhook, WebhookDeliveryMessage, WebhookList, WebhookPayload, WebhookWithSecret } from "../../../shared/src/webhooks/schema.ts";
import { checkWebhookUrl, postWebhook } from "../../../shared/src/webhooks/send.ts";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, useLocalAws } from "../../../test/world.ts";
import { handler as consumer } from "../jobs/webhooks.ts";

useLocalAws({ sqs: true, bucket: "atende-webhooks-test" });
const w = companyWorld({ queues: ["Suporte"], whatsapp: true, agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Sofia", profile: "supervisor" }], other: true });

// ---- a plain HTTP receiver ---------------------------------------------------------------------------------------

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let server: Server;
let base = "";
const received: Received[] = [];
/** What the receiver answers, per path (default 200), in order; the last one repeats. */
const answers = new Map<string, number[]>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body });
      const list = answers.get(path) ?? [200];
      const code = list.length > 1 ? list.shift()! : list[0];
      res.writeHead(code, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(async () => {
  if (w.wa) await drainCommands(w.wa);
});

let n = 0;
const hookPath = () => `/hook-${++n}`;
const create = (u: TestUser, body: Record<string, unknown>) => api("POST", "/api/webhooks", { token: u.token, body });
const at = (path: string) => received.filter((r) => r.path === path);

/** Receives every waiting webhooks-queue message and runs it: through the Lambda handler, or at `nowMs` (a controlled clock). */
async function pump(nowMs?: number): Promise<number> {
  const url = getConfig().WEBHOOKS_QUEUE_URL!;
  let handled = 0;
  for (let i = 0; i < 20; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!res.Messages?.length) break;
    if (nowMs === undefined) {
      const out = await consumer({ Records: res.Messages.map((m) => ({ messageId: m.MessageId!, body: m.Body! })) });
      expect(out.batchItemFailures).toEqual([]);
    } else {
      for (const m of res.Messages) await attemptDelivery(WebhookDeliveryMessage.parse(JSON.parse(m.Body!)), nowMs);
    }
    for (const m of res.Messages) await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    handled += res.Messages.length;
  }
  return handled;
}

/** A webhook of `u`'s company to a fresh path of the receiver, for `events`. */
async function hook(u: TestUser, events: string[]) {
  const path = hookPath();
  const res = await create(u, { name: `Hook ${n}`, url: `${base}${path}`, events });
  expect(res.status).toBe(200);
  return { ...WebhookWithSecret.parse(res.body), path };
}

const newContact = (u: TestUser, name: string) => api("POST", "/api/contacts", { token: u.token, body: { name, number: `5511${String(Date.now()).slice(-8)}${n}` } });

// ---- CRUD and rights ----------------------------------------------------------------------------------------------

describe("webhooks CRUD", () => {
  it("creates a webhook with its secret shown once, then lists, reads and updates it without the secret", async () => {
    const res = await create(w.admin, { name: " CRM ", url: `${base}/crm`, events: ["ticket.closed", "contact.created", "ticket.closed"] });
    expect(res.status).toBe(200);
    const made = WebhookWithSecret.parse(res.body);
    expect(made).toMatchObject({ companyId: w.cid, name: "CRM", url: `${base}/crm`, events: ["ticket.closed", "contact.created"], enabled: true });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(made.secretHint).toBe(made.secret.slice(-4));

    const listed = WebhookList.parse((await api("GET", "/api/webhooks", { token: w.admin.token })).body);
    expect(listed.map((h) => h.id)).toContain(made.id);
    const one = await api("GET", `/api/webhooks/${made.id}`, { token: w.admin.token });
    expect(JSON.stringify(one.body)).not.toContain(made.secret);
    expect(JSON.stringify(listed)).not.toContain(made.secret);

    const upd = await api("PUT", `/api/webhooks/${made.id}`, { token: w.admin.token, body: { enabled: false, events: ["message.created"] } });
    expect(Webhook.parse(upd.body)).toMatchObject({ enabled: false, events: ["message.created"], name: "CRM" });
    expect(JSON.stringify(upd.body)).not.toContain(made.secret);

    const regen = WebhookWithSecret.parse((await api("POST", `/api/webhooks/${made.id}/secret`, { token: w.admin.token })).body);
    expect(regen.secret).not.toBe(made.secret);
    expect(regen.secretHint).toBe(regen.secret.slice(-4));
    // Stored only sealed.
    const stored = JSON.stringify(await getWebhook(w.cid, made.id));
    expect(stored).not.toContain(regen.secret);
    expect(stored).not.toContain(made.secret);

    expect((await api("DELETE", `/api/webhooks/${made.id}`, { token: w.admin.token })).status).toBe(200);
    expect((await api("GET", `/api/webhooks/${made.id}`, { token: w.admin.token })).body).toEqual({ error: "ERR_NO_WEBHOOK_FOUND" });
  });

  it("refuses bad bodies with 400 and writes nothing", async () => {
    const before = WebhookList.parse((await api("GET", "/api/webhooks", { token: w.admin.token })).body).length;
    for (const body of [{}, { name: "x", url: `${base}/x`, events: [] }, { name: "x", url: `${base}/x`, events: ["ticket.deleted"] }, { name: "x", url: "ftp://example.com/x", events: ["ticket.closed"] }, { name: "x", url: "not a url", events: ["ticket.closed"] }]) {
      const res = await create(w.admin, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^ERR_(VALIDATION|WEBHOOK_URL_INVALID)$/);
    }
    expect(WebhookList.parse((await api("GET", "/api/webhooks", { token: w.admin.token })).body)).toHaveLength(before);
  });

  it("is for admins only: an agent and a supervisor get 403 on every route", async () => {
    const h = await hook(w.admin, ["ticket.closed"]);
    for (const u of w.agents) {
      const calls = [
        api("GET", "/api/webhooks", { token: u.token }),
        create(u, { name: "x", url: `${base}/x`, events: ["ticket.closed"] }),
        api("GET", `/api/webhooks/${h.id}`, { token: u.token }),
        api("PUT", `/api/webhooks/${h.id}`, { token: u.token, body: { enabled: false } }),
        api("DELETE", `/api/webhooks/${h.id}`, { token: u.token }),
        api("POST", `/api/webhooks/${h.id}/secret`, { token: u.token }),
        api("POST", `/api/webhooks/${h.id}/test`, { token: u.token }),
        api("GET", `/api/webhooks/${h.id}/deliveries`, { token: u.token }),
      ];
      for (const res of await Promise.all(calls)) expect(res.status).toBe(403);
    }
    expect(Webhook.parse((await api("GET", `/api/webhooks/${h.id}`, { token: w.admin.token })).body).enabled).toBe(true);
  });

  it("another company's admin can neither see, change, test nor read the log of a webhook (404, nothing changed)", async () => {
    const h = await hook(w.admin, ["ticket.closed"]);
    const other = w.other.admin;
    expect(WebhookList.parse((await api("GET", "/api/webhooks", { token: other.token })).body).map((x) => x.id)).not.toContain(h.id);
    const calls = [
      api("GET", `/api/webhooks/${h.id}`, { token: other.token }),
      api("PUT", `/api/webhooks/${h.id}`, { token: other.token, body: { url: `${base}/stolen` } }),
      api("DELETE", `/api/webhooks/${h.id}`, { token: other.token }),
      api("POST", `/api/webhooks/${h.id}/secret`, { token: other.token }),
      api("POST", `/api/webhooks/${h.id}/test`, { token: other.token }),
      api("GET", `/api/webhooks/${h.id}/deliveries`, { token: other.token }),
    ];
    for (const res of await Promise.all(calls)) expect(res.body).toEqual({ error: "ERR_NO_WEBHOOK_FOUND" });
    expect(Webhook.parse((await api("GET", `/api/webhooks/${h.id}`, { token: w.admin.token })).body).url).toBe(`${base}${h.path}`);
    expect(await pump()).toBe(0);
    expect(at(h.path)).toHaveLength(0);
  });
});

// ---- deliveries -----------------------------------------------------------------------------------------------------

describe("webhook deliveries", () => {
  it("POSTs a subscribed event with the documented payload, signed so the documented recipe verifies it", async () => {
    const h = await hook(w.admin, ["contact.created"]);
    const made = await newContact(w.admin, "Maria Webhook");
    expect(made.status).toBe(200);
    expect(await pump()).toBe(1);
    const [got] = at(h.path);
    expect(got).toBeDefined();
    // The recipe of docs/product/webhooks.md#signature: HMAC-SHA256(secret, `${timestamp}.${rawBody}`), hex, after "v1=".
    const ts = got.headers["x-atende-timestamp"] as string;
    const expected = `v1=${createHmac("sha256", h.secret).update(`${ts}.${got.body}`).digest("hex")}`;
    const sig = got.headers["x-atende-signature"] as string;
    expect(sig.length).toBe(expected.length);
    expect(timingSafeEqual(Buffer.from(sig), Buffer.from(expected))).toBe(true);
    expect(Math.abs(Date.now() / 1000 - Number(ts))).toBeLessThan(60);
    // Another secret does not verify it.
    expect(createHmac("sha256", "whsec_other").update(`${ts}.${got.body}`).digest("hex")).not.toBe(sig.slice(3));

    const payload = WebhookPayload.parse(JSON.parse(got.body));
    expect(payload).toMatchObject({ type: "contact.created", companyId: w.cid, data: { contact: { id: made.body.id, name: "Maria Webhook" } } });
    expect(payload.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(got.headers["x-atende-event-id"]).toBe(payload.id);
    expect(got.headers["x-atende-event"]).toBe("contact.created");
    expect(got.headers["content-type"]).toBe("application/json");

    const log = DeliveriesPage.parse((await api("GET", `/api/webhooks/${h.id}/deliveries`, { token: w.admin.token })).body);
    expect(log.records).toHaveLength(1);
    expect(log.records[0]).toMatchObject({ eventId: payload.id, eventType: "contact.created", status: "delivered", attempts: 1, responseCode: 200, lastError: null });
  });

  it("sends a ticket's close with the ticket and contact views, only to the webhooks subscribed to it, never a disabled one", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, contact: await makeContact(w.cid, "Fechado", "5511988887777"), status: "open", userId: w.admin.id });
    await pump();
    const closed = await hook(w.admin, ["ticket.closed"]);
    const created = await hook(w.admin, ["contact.created", "ticket.created"]);
    const off = await hook(w.admin, ["ticket.closed"]);
    await api("PUT", `/api/webhooks/${off.id}`, { token: w.admin.token, body: { enabled: false } });
    const res = await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { status: "closed" } });
    expect(res.status).toBe(200);
    await pump();
    expect(at(created.path)).toHaveLength(0);
    expect(at(off.path)).toHaveLength(0);
    const [got] = at(closed.path);
    const payload = WebhookPayload.parse(JSON.parse(got.body));
    expect(payload).toMatchObject({ type: "ticket.closed", companyId: w.cid, data: { ticket: { id: t.id, status: "closed" }, previous: { status: "open" } } });
    expect(payload.data).toHaveProperty("contact.id", t.contactId);
    // A view, never a raw protocol record.
    expect(got.body).not.toMatch(/remoteJid|"key":\{/);
  });

  it("loses no event when the process dies right after a ticket's close commits: the tick delivers it", async () => {
    const t = await makeTicket(w.cid, { whatsappId: w.wa, contact: await makeContact(w.cid, "Queda", "5511977776666"), status: "open", userId: w.admin.id });
    // Runs the fixtures left (their facts were written without a dispatch) are applied first.
    await redriveDurable(Date.now() + RUN_GRACE_MS + 1000);
    await pump();
    const h = await hook(w.admin, ["ticket.closed"]);
    // From the ticket's commit on, every DynamoDB call fails: nothing after the fact's transaction reaches the table.
    const client = ddb();
    const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
    const key = keys.ticket(w.cid, t.id);
    let dead = false;
    vi.spyOn(client, "send").mockImplementation((async (cmd: { constructor: { name: string }; input: Record<string, unknown> }, ...rest: unknown[]) => {
      if (dead) throw Object.assign(new Error("process killed (test)"), { name: "ProcessKilled" });
      const out = await send(cmd, ...rest);
      const items = cmd.constructor.name === "TransactWriteCommand" ? (cmd.input.TransactItems as Record<string, { Key?: typeof key; Item?: typeof key }>[]) : [];
      if (items.some((it) => (it.Update?.Key ?? it.Put?.Item)?.PK === key.PK && (it.Update?.Key ?? it.Put?.Item)?.SK === key.SK)) dead = true;
      return out;
    }) as never);
    await api("PUT", `/api/tickets/${t.id}`, { token: w.admin.token, body: { status: "closed" } }).catch(() => undefined);
    vi.restoreAllMocks();
    expect(dead).toBe(true);
    expect(await pump()).toBe(0);
    expect(at(h.path)).toHaveLength(0);

    await redriveDurable(Date.now() + RUN_GRACE_MS + 1000);
    await pump();
    expect(at(h.path)).toHaveLength(1);
    const [got] = at(h.path);
    expect(WebhookPayload.parse(JSON.parse(got.body))).toMatchObject({ type: "ticket.closed", data: { ticket: { id: t.id, status: "closed" } } });
  });

  it("never delivers a company's events to another company's webhook", async () => {
    const mine = await hook(w.admin, ["contact.created"]);
    const theirs = await hook(w.other.admin, ["contact.created"]);
    await newContact(w.admin, "Só da empresa A");
    await pump();
    expect(at(mine.path)).toHaveLength(1);
    expect(at(theirs.path)).toHaveLength(0);
    const theirLog = DeliveriesPage.parse((await api("GET", `/api/webhooks/${theirs.id}/deliveries`, { token: w.other.admin.token })).body);
    expect(theirLog.records).toEqual([]);
  });

  it("retries after a 500 with backoff, then succeeds: one delivery logged with 2 attempts, the same event id both times", async () => {
    const h = await hook(w.admin, ["contact.created"]);
    answers.set(h.path, [500, 200]);
    await newContact(w.admin, "Retentativa");
    await pump();
    expect(at(h.path)).toHaveLength(1);
    let log = DeliveriesPage.parse((await api("GET", `/api/webhooks/${h.id}/deliveries`, { token: w.admin.token })).body);
    expect(log.records[0]).toMatchObject({ status: "pending", attempts: 1, responseCode: 500, lastError: "HTTP 500" });
    const next = Date.parse(log.records[0].nextAttemptAt!);
    expect(next - Date.parse(log.records[0].lastAttemptAt!)).toBe(60_000);
    // Not before its time: a tick now sends nothing.
    await runDueTimers(new Date());
    expect(await pump()).toBe(0);
    await runDueTimers(new Date(next + 1000));
    expect(await pump()).toBe(1);
    const hits = at(h.path);
    expect(hits).toHaveLength(2);
    expect(hits[0].headers["x-atende-event-id"]).toBe(hits[1].headers["x-atende-event-id"]);
    expect(hits[0].body).toBe(hits[1].body);
    log = DeliveriesPage.parse((await api("GET", `/api/webhooks/${h.id}/deliveries`, { token: w.admin.token })).body);
    expect(log.records).toHaveLength(1);
    expect(log.records[0]).toMatchObject({ status: "delivered", attempts: 2, responseCode: 200, lastError: null, nextAttemptAt: null });
  });

  it("gives a receiver down for longer than a day up: failed after the retry window, with its attempts and last error", async () => {
    const h = await hook(w.admin, ["contact.created"]);
    answers.set(h.path, [503]);
    const made = await newContact(w.admin, "Fora do ar");
    const start = Date.now();
    await pump(start);
    const first = DeliveriesPage.parse((await api("GET", `/api/webhooks/${h.id}/deliveries`, { token: w.admin.token })).body).records[0];
    let d = (await getDelivery(w.cid, h.id, first.at, first.eventId))!;
    let clock = start;
    let beforeWindowEnd = d;
    for (let i = 0; i < 40 && d.status === "pending"; i++) {
      clock = Date.parse(d.nextAttemptAt!) + 1000;
      await runDueTimers(new Date(clock));
      await pump(clock);
      d = (await getDelivery(w.cid, h.id, first.at, first.eventId))!;
      if (clock < Date.parse(first.at) + RETRY_WINDOW_MS - 4 * 60 * 60_000) beforeWindowEnd = d;
    }
    expect(beforeWindowEnd.status).toBe("pending");
    expect(d).toMatchObject({ status: "failed", responseCode: 503, lastError: "HTTP 503", nextAttemptAt: null });
    expect(d.attempts).toBe(at(h.path).length);
    expect(d.attempts).toBe(13); // 1, 2, 4 ... 128 minutes apart, then every 4 hours, for 24 hours (docs/product/webhooks.md#delivery)
    expect(Date.parse(d.lastAttemptAt!)).toBeLessThanOrEqual(Date.parse(first.at) + RETRY_WINDOW_MS + 60_000);
    // Nothing more is ever tried.
    await runDueTimers(new Date(clock + 2 * RETRY_WINDOW_MS));
    expect(await pump(clock + 2 * RETRY_WINDOW_MS)).toBe(0);
    expect(made.status).toBe(200);
  });

  it("'send test event' queues a webhook.test delivery shown in the log", async () => {
    const h = await hook(w.admin, ["ticket.rated"]);
    const res = await api("POST", `/api/webhooks/${h.id}/test`, { token: w.admin.token });
    expect(res.body).toMatchObject({ eventType: "webhook.test", status: "pending", attempts: 0 });
    await pump();
    const [got] = at(h.path);
    expect(WebhookPayload.parse(JSON.parse(got.body))).toMatchObject({ type: "webhook.test", companyId: w.cid, data: { webhook: { id: h.id } } });
    const log = DeliveriesPage.parse((await api("GET", `/api/webhooks/${h.id}/deliveries`, { token: w.admin.token })).body);
    expect(log.records[0]).toMatchObject({ eventType: "webhook.test", status: "delivered", attempts: 1, responseCode: 200 });
  });

  it("pages the delivery log newest first and refuses a cursor of another webhook", async () => {
    const h = await hook(w.admin, ["contact.created"]);
    for (let i = 0; i < 22; i++) await api("POST", `/api/webhooks/${h.id}/test`, { token: w.admin.token });
    const p1 = DeliveriesPage.parse((await api("GET", `/api/webhooks/${h.id}/deliveries`, { token: w.admin.token })).body);
    expect(p1.records).toHaveLength(20);
    expect(p1.records.map((r) => r.at)).toEqual([...p1.records.map((r) => r.at)].sort().reverse());
    const p2 = DeliveriesPage.parse((await api("GET", `/api/webhooks/${h.id}/deliveries?cursor=${p1.cursor}`, { token: w.admin.token })).body);
    expect(p2.records).toHaveLength(2);
    const other = await hook(w.admin, ["contact.created"]);
    expect((await api("GET", `/api/webhooks/${other.id}/deliveries?cursor=${p1.cursor}`, { token: w.admin.token })).body).toEqual({ error: "ERR_INVALID_CURSOR" });
    await pump();
  });
});

// ---- URL rules in the cloud ----------------------------------------------------------------------------------------

describe("URL rules outside one machine", () => {
  const stage = process.env.STAGE;
  beforeAll(() => {
    process.env.STAGE = "prod";
    resetConfig();
  });
  afterAll(() => {
    if (stage === undefined) delete process.env.STAGE;
    else process.env.STAGE = stage;
    resetConfig();
  });

  it("accepts https only, and no private, loopback or link-local address literal", () => {
    expect(checkWebhookUrl("https://example.com/hook").hostname).toBe("example.com");
    for (const bad of ["http://example.com/hook", "https://127.0.0.1/x", "https://10.1.2.3/x", "https://169.254.169.254/latest", "https://[::1]/x", "https://[::ffff:192.168.0.1]/x", "https://user:pw@example.com/x"]) {
      expect(() => checkWebhookUrl(bad), bad).toThrow(expect.objectContaining({ code: "ERR_WEBHOOK_URL_INVALID" }));
    }
  });

  it("refuses at send time a host name that resolves to a loopback address, and the receiver gets nothing", async () => {
    const port = (server.address() as AddressInfo).port;
    const before = received.length;
    const r = await postWebhook({ url: `https://localhost:${port}/ssrf`, secret: "whsec_x" }, "{}", { eventId: "evt_x", eventType: "webhook.test" }, Date.now());
    expect(r).toMatchObject({ ok: false, responseCode: null });
    expect(r.error).toMatch(/address not allowed/);
    const plain = await postWebhook({ url: `${base}/ssrf`, secret: "whsec_x" }, "{}", { eventId: "evt_x", eventType: "webhook.test" }, Date.now());
    expect(plain).toMatchObject({ ok: false, error: "URL not allowed" });
    expect(received.length).toBe(before);
  });
});
