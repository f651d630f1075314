/**
 * Push notifications through the real Lambda handlers and the push queue's consumer, against the local push service
 * stand-in (`web-push-testing`, which decrypts what it receives): subscribe/unsubscribe rights and cross-company
 * isolation, who gets which push (new pending ticket by queue and allTicket, a customer's message to the holder only,
 * chat members but the sender, announcements across companies), no push with a visible tab, a 410 removing the device,
 * a failing push service retried with a delay, and revoked access removing devices.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startPushStandin, type PushStandin } from "../../../infra/local/src/push-standin.ts";
import { nowIso } from "../../../shared/src/common.ts";
import { getConfig, resetConfig } from "../../../shared/src/config.ts";
import { dispatch, settleDeferred } from "../../../shared/src/events/index.ts";
import { ingestMessage } from "../../../shared/src/messages/repository.ts";
import { chatJidOf } from "../../../shared/src/messages/service.ts";
import { forgetPushUsers } from "../../../shared/src/push/audience-cache.ts";
import { handlePushMessage, retryDelaySeconds } from "../../../shared/src/push/delivery.ts";
import { listCompanySubscriptions, listUserSubscriptions } from "../../../shared/src/push/repository.ts";
import { PushMessage, PushPayload } from "../../../shared/src/push/schema.ts";
import { generateVapidKeys, resetVapidKeys } from "../../../shared/src/push/vapid.ts";
import { setSocketVisible } from "../../../shared/src/realtime/connections.ts";
import { sqsClient } from "../../../shared/src/sqs/enqueue.ts";
import { makeContact, makeTicket } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { getTicketItem } from "../../../shared/src/tickets/repository.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws } from "../../../test/world.ts";
import { handler as consumer } from "../jobs/push.ts";

useLocalAws({ sqs: true, bucket: "atende-push-test" });
const w = companyWorld({
  queues: ["Suporte", "Vendas"],
  whatsapp: true,
  agents: [
    { queues: [0], name: "Ana" },
    { queues: [1], name: "Bruno" },
    { queues: [], name: "Carla", allTicket: "enabled" },
    { queues: [0], name: "Davi", profile: "supervisor" },
  ],
  other: true,
  root: true,
});
const ana = () => w.agents[0];
const bruno = () => w.agents[1];
const carla = () => w.agents[2];
const davi = () => w.agents[3];

let standin: PushStandin;
const vapid = generateVapidKeys();

beforeAll(async () => {
  process.env.VAPID_PUBLIC_KEY = vapid.publicKey;
  process.env.VAPID_PRIVATE_KEY = vapid.privateKey;
  resetConfig();
  resetVapidKeys();
  standin = await startPushStandin();
});
afterAll(async () => {
  await standin?.stop();
  delete process.env.VAPID_PUBLIC_KEY;
  delete process.env.VAPID_PRIVATE_KEY;
  resetConfig();
  resetVapidKeys();
});

interface Device {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

const post = (path: string, body: unknown) =>
  fetch(`${standin.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);

/** A device of the stand-in (what a browser's `PushSubscription.toJSON()` gives), subscribed by `u` through the API. */
async function device(u: TestUser, lang = "pt"): Promise<Device> {
  const d = (await post("/subscribe", { applicationServerKey: vapid.publicKey })).data as Device;
  const res = await api("POST", "/api/push/subscriptions", { token: u.token, body: { endpoint: d.endpoint, keys: d.keys, lang } });
  expect(res.status).toBe(200);
  return d;
}

/** The notifications a device received so far (decrypted by the stand-in). */
const received = async (d: Device): Promise<PushPayload[]> => ((await post("/get-notifications", { clientHash: d.clientHash })).data.messages as string[]).map((m) => PushPayload.parse(JSON.parse(m)));

/** Runs every waiting push-queue message through the consumer, as Lambda does. Returns how many. */
async function pump(): Promise<number> {
  await settleDeferred();
  const url = getConfig().PUSH_QUEUE_URL!;
  let handled = 0;
  for (let i = 0; i < 20; i++) {
    const res = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!res.Messages?.length) break;
    const out = await consumer({ Records: res.Messages.map((m) => ({ messageId: m.MessageId!, body: m.Body! })) });
    expect(out.batchItemFailures).toEqual([]);
    for (const m of res.Messages) await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle! }));
    handled += res.Messages.length;
  }
  return handled;
}

/** A new pending ticket of a new contact, in queue `q` (index; null: no queue), as the ingest tells it. */
async function newPendingTicket(q: number | null, name = "Cliente Novo") {
  const contact = await makeContact(w.cid, name);
  const ticket = await makeTicket(w.cid, { contact, whatsappId: w.wa, queueId: q === null ? null : w.queues[q] });
  await dispatch({ type: "ticket.created", companyId: w.cid, ticket });
  return ticket;
}

beforeEach(async () => {
  await pump();
});

describe("subscribing a device", () => {
  it("serves the VAPID public key to every signed-in user, and to nobody signed out", async () => {
    for (const u of [w.admin, ana(), davi()]) expect((await api("GET", "/api/push/key", { token: u.token })).body).toEqual({ publicKey: vapid.publicKey });
    expect((await api("GET", "/api/push/key")).status).toBe(401);
  });

  it("stores the device under the caller; a second subscribe of the same endpoint refreshes it", async () => {
    const d = await device(bruno(), "en");
    const again = await api("POST", "/api/push/subscriptions", { token: bruno().token, body: { endpoint: d.endpoint, keys: d.keys, lang: "es" } });
    expect(again.body).toMatchObject({ endpoint: d.endpoint, lang: "es" });
    const mine = await listUserSubscriptions(w.cid, bruno().id);
    expect(mine.filter((s) => s.endpoint === d.endpoint)).toHaveLength(1);
    expect(mine.find((s) => s.endpoint === d.endpoint)?.lang).toBe("es");
    expect((await api("DELETE", "/api/push/subscriptions", { token: bruno().token, body: { endpoint: d.endpoint } })).body).toEqual({ removed: true });
  });

  it("refuses bad bodies and endpoints that are not a push service's, writing nothing", async () => {
    const before = (await listCompanySubscriptions(w.cid)).length;
    const keys = { p256dh: "BAAA", auth: "abc" };
    for (const body of [{}, { endpoint: "not a url", keys }, { endpoint: "https://fcm.googleapis.com/x" }, { endpoint: "https://fcm.googleapis.com/x", keys, lang: "fr" }]) {
      const res = await api("POST", "/api/push/subscriptions", { token: ana().token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    const lan = await api("POST", "/api/push/subscriptions", { token: ana().token, body: { endpoint: "http://10.0.0.5/push", keys } });
    expect(lan.body).toEqual({ error: "ERR_PUSH_ENDPOINT_INVALID" });
    process.env.STAGE = "prod";
    resetConfig();
    try {
      const elsewhere = await api("POST", "/api/push/subscriptions", { token: ana().token, body: { endpoint: "https://push.example.com/x", keys } });
      expect(elsewhere.body).toEqual({ error: "ERR_PUSH_ENDPOINT_INVALID" });
    } finally {
      delete process.env.STAGE;
      resetConfig();
    }
    expect(await listCompanySubscriptions(w.cid)).toHaveLength(before);
  });

  it("never lets a user of another company (or another user) remove a device, and never pushes across companies", async () => {
    const d = await device(ana());
    expect((await api("DELETE", "/api/push/subscriptions", { token: w.other.admin.token, body: { endpoint: d.endpoint } })).body).toEqual({ removed: false });
    expect((await api("DELETE", "/api/push/subscriptions", { token: bruno().token, body: { endpoint: d.endpoint } })).body).toEqual({ removed: false });
    expect((await listUserSubscriptions(w.cid, ana().id)).map((s) => s.endpoint)).toContain(d.endpoint);
    const theirs = await device(w.other.admin);
    await newPendingTicket(0, "Só da empresa um");
    await pump();
    expect((await received(d)).map((p) => p.body)).toContain("Só da empresa um");
    expect(await received(theirs)).toEqual([]);
    expect((await api("DELETE", "/api/push/subscriptions", { token: ana().token, body: { endpoint: d.endpoint } })).body).toEqual({ removed: true });
    await api("DELETE", "/api/push/subscriptions", { token: w.other.admin.token, body: { endpoint: theirs.endpoint } });
  });
});

describe("who gets which push", () => {
  it("a new pending ticket goes to its queue's users and admins; one without queue to allTicket users", async () => {
    const [a, b, c, d, adm] = [await device(ana()), await device(bruno(), "en"), await device(carla()), await device(davi()), await device(w.admin)];
    const t = await newPendingTicket(0, "Maria");
    await pump();
    const [pa] = await received(a);
    expect(pa).toEqual({ kind: "ticket", title: "Novo ticket aguardando", body: "Maria", tag: `ticket-${t.uuid}`, url: `/tickets/${t.uuid}` });
    expect(await received(d)).toHaveLength(1);
    expect(await received(adm)).toHaveLength(1);
    expect(await received(b)).toEqual([]);
    expect(await received(c)).toEqual([]);

    const none = await newPendingTicket(null, "Sem fila");
    await pump();
    expect((await received(c)).map((p) => p.url)).toEqual([`/tickets/${none.uuid}`]);
    expect(await received(b)).toEqual([]);
    expect(await received(a)).toHaveLength(1);
    for (const [u, dev] of [[ana(), a], [bruno(), b], [carla(), c], [davi(), d], [w.admin, adm]] as const) {
      await api("DELETE", "/api/push/subscriptions", { token: u.token, body: { endpoint: dev.endpoint } });
    }
  });

  it("a customer's message in an open ticket goes to the agent holding it only, collapsed by the ticket's tag", async () => {
    const [a, d] = [await device(ana(), "en"), await device(davi())];
    const contact = await makeContact(w.cid, "João");
    const t = await makeTicket(w.cid, { contact, whatsappId: w.wa, queueId: w.queues[0], status: "open", userId: ana().id });
    await pump();
    const fresh = (await getTicketItem(w.cid, t.id, true))!;
    const jid = chatJidOf(contact);
    const stored = await ingestMessage(
      w.cid,
      fresh,
      { id: `IN${Date.now()}`, ticketId: t.id, companyId: w.cid, contactId: contact.id, whatsappId: w.wa, remoteJid: jid, body: "Oi, tudo bem?", fromMe: false, waTimestamp: nowIso() } as never,
      { lastMessage: "Oi, tudo bem?", incrementUnread: true, waAliasJid: jid },
    );
    await dispatch({ type: "message.created", companyId: w.cid, message: stored.message, ticket: stored.ticket });
    await pump();
    expect(await received(a)).toEqual([{ kind: "message", title: "João", body: "Oi, tudo bem?", tag: `ticket-${t.uuid}`, url: `/tickets/${t.uuid}` }]);
    expect(await received(d)).toEqual([]);
    // The agent's own message is never pushed.
    await dispatch({ type: "message.created", companyId: w.cid, message: { ...stored.message, fromMe: true }, ticket: stored.ticket });
    await pump();
    expect(await received(a)).toHaveLength(1);
    await api("DELETE", "/api/push/subscriptions", { token: ana().token, body: { endpoint: a.endpoint } });
    await api("DELETE", "/api/push/subscriptions", { token: davi().token, body: { endpoint: d.endpoint } });
  });

  it("an internal chat message goes to the chat's members but its sender", async () => {
    const [a, b, c] = [await device(ana()), await device(bruno()), await device(carla())];
    const chat = await api("POST", "/api/chats", { token: ana().token, body: { title: "Plantão", users: [bruno().id] } });
    expect(chat.status).toBe(200);
    await api("POST", `/api/chats/${chat.body.id}/messages`, { token: ana().token, body: { message: "Alguém cobre o sábado?" } });
    await pump();
    expect(await received(b)).toEqual([{ kind: "chat", title: "Plantão", body: "Ana: Alguém cobre o sábado?", tag: `chat-${chat.body.uuid}`, url: `/chats/${chat.body.uuid}` }]);
    expect(await received(a)).toEqual([]);
    expect(await received(c)).toEqual([]);
    for (const [u, dev] of [[ana(), a], [bruno(), b], [carla(), c]] as const) await api("DELETE", "/api/push/subscriptions", { token: u.token, body: { endpoint: dev.endpoint } });
  });

  it("a new active announcement goes to the subscribed users of every company", async () => {
    const [a, o] = [await device(ana(), "es"), await device(w.other.admin)];
    const made = await api("POST", "/api/announcements", { token: w.root.token, body: { title: "Manutenção", text: "Sábado às 22h", priority: 1 } });
    expect(made.status).toBe(200);
    await api("POST", "/api/announcements", { token: w.root.token, body: { title: "Rascunho", text: "não sai", status: false } });
    await pump();
    const url = `/?announcement=${made.body.id}`;
    expect(await received(a)).toEqual([{ kind: "announcement", title: "Anuncio: Manutenção", body: "Sábado às 22h", tag: `announcement-${made.body.id}`, url }]);
    expect((await received(o)).map((p) => p.url)).toEqual([url]);
    await api("DELETE", "/api/push/subscriptions", { token: ana().token, body: { endpoint: a.endpoint } });
    await api("DELETE", "/api/push/subscriptions", { token: w.other.admin.token, body: { endpoint: o.endpoint } });
  });
});

describe("delivery", () => {
  it("sends nothing to a user with a visible tab, and sends once the tab is hidden", async () => {
    const a = await device(ana());
    const socket = await registerSocket(w.cid, { id: ana().id, profile: "user", queueIds: [w.queues[0]] });
    await setSocketVisible(w.cid, socket, true);
    await newPendingTicket(0, "Com aba aberta");
    await pump();
    expect(await received(a)).toEqual([]);
    await setSocketVisible(w.cid, socket, false);
    await newPendingTicket(0, "Com aba escondida");
    await pump();
    expect((await received(a)).map((p) => p.body)).toEqual(["Com aba escondida"]);
    await api("DELETE", "/api/push/subscriptions", { token: ana().token, body: { endpoint: a.endpoint } });
  });

  it("removes a device whose push service answers 410", async () => {
    const a = await device(ana());
    await fetch(`${standin.url}/expire-subscription/${a.clientHash}`, { method: "POST" });
    await newPendingTicket(0, "Expirado");
    await pump();
    expect((await listUserSubscriptions(w.cid, ana().id)).map((s) => s.endpoint)).not.toContain(a.endpoint);
  });

  it("retries a push service that is down with a growing delay, without holding up the fact", async () => {
    const answers = [503, 503, 201];
    const hits: number[] = [];
    const down: Server = createServer((req, res) => {
      req.resume();
      const code = answers.shift() ?? 201;
      hits.push(code);
      res.writeHead(code).end();
    });
    await new Promise<void>((r) => down.listen(0, "127.0.0.1", r));
    const stub = (await post("/subscribe", { applicationServerKey: vapid.publicKey })).data as Device;
    const endpoint = `http://127.0.0.1:${(down.address() as AddressInfo).port}/push/1`;
    await api("POST", "/api/push/subscriptions", { token: bruno().token, body: { endpoint, keys: stub.keys } });
    const sent = vi.spyOn(sqsClient(), "send");
    try {
      await newPendingTicket(1, "Serviço fora");
      await pump();
      const retries = () =>
        sent.mock.calls
          .map(([c]) => c as unknown)
          .filter((c): c is SendMessageCommand => c instanceof SendMessageCommand && JSON.parse(c.input.MessageBody!).type === "retry");
      expect(hits).toEqual([503]);
      expect(retries()).toHaveLength(1);
      expect(retries()[0].input.DelaySeconds).toBe(retryDelaySeconds(1));
      // The delayed message, handled when it is due: fails again, then goes through.
      await handlePushMessage(PushMessage.parse(JSON.parse(retries()[0].input.MessageBody!)));
      expect(retries()[1].input.DelaySeconds).toBe(retryDelaySeconds(2));
      expect(retryDelaySeconds(2)).toBeGreaterThan(retryDelaySeconds(1));
      const last = await handlePushMessage(PushMessage.parse(JSON.parse(retries()[1].input.MessageBody!)));
      expect(last).toMatchObject({ sent: 1, retried: 0 });
      expect(hits).toEqual([503, 503, 201]);
    } finally {
      sent.mockRestore();
      await new Promise<void>((r) => down.close(() => r()));
      await api("DELETE", "/api/push/subscriptions", { token: bruno().token, body: { endpoint } });
    }
  });
});

describe("revoked access", () => {
  it("logout removes the user's devices; a deleted user's devices go too", async () => {
    const login = await api("POST", "/api/auth/login", { body: { email: carla().email, password: carla().password } });
    expect(login.status).toBe(200);
    const c = await device({ ...carla(), token: login.body.token });
    expect(await listUserSubscriptions(w.cid, carla().id)).toHaveLength(1);
    await api("DELETE", "/api/auth/logout", { token: login.body.token });
    expect(await listUserSubscriptions(w.cid, carla().id)).toEqual([]);

    const fresh = await w.fresh({ agents: [{ queues: [0], name: "Eva" }] });
    const eva = fresh.agents[0];
    await device(eva);
    expect(await listUserSubscriptions(fresh.cid, eva.id)).toHaveLength(1);
    expect((await api("DELETE", `/api/users/${eva.id}`, { token: fresh.admin.token })).status).toBe(200);
    expect(await listUserSubscriptions(fresh.cid, eva.id)).toEqual([]);
    forgetPushUsers(fresh.cid);
    expect(await received(c)).toEqual([]);
  });
});
