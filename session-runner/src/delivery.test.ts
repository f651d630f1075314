/**
 * Proof, against DynamoDB Local and fauxqs, that outbound messages never vanish at ack 0. A runner killed
 * mid-send, a connection held in reconnect, a DONE command redelivered, a command dead-lettered, a command lost:
 * each message ends sent exactly once or visibly failed (ack -1 + sendError, told to the agent), never stuck at 0.
 * Waiting is simulated (claims expire at once, the sweep gets the time it runs at): no timing assertions.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AnyMessageContent } from "@whiskeysockets/baileys";
import { getMessage, listMessages, updateMessage } from "@atende/shared/messages/repository";
import { OUTBOUND_DEADLINE_MS, sweepOutbound } from "@atende/shared/messages/delivery";
import { sendOutbound } from "@atende/shared/messages/service";
import { sendAutomatic } from "@atende/shared/automation/automatic";
import { sqsClient } from "@atende/shared/sqs/enqueue";
import { makeTicket, makeWhatsapp } from "@atende/shared/tickets/fixtures.testkit";
import { shardOf, type SessionCommand } from "@atende/shared/whatsapp/commands";
import { companyWorld } from "../../test/world.ts";
import { handler as commandDlq } from "../../functions/src/jobs/command-dlq.ts";
import { CommandHandler, RetryLater, retryVisibility } from "./commands.ts";
import type { SessionManager } from "./sessions.ts";
import { memoryStore } from "./testing/fakes.ts";
import { registerSocket } from "./testing/harness.ts";
import { useQueuesAndRealtime } from "./testing/one-machine.ts";

const companies = companyWorld({ capture: false });

const world = useQueuesAndRealtime();

/** A stand-in for the session manager: one session whose state and socket the test drives. */
function fakeSessions(state: { phase: "open" | "waiting"; send: (jid: string, content: AnyMessageContent) => Promise<unknown> }) {
  const sent: { jid: string; content: AnyMessageContent }[] = [];
  const session = {
    get isOpen() {
      return state.phase === "open";
    },
    get isReconnecting() {
      return state.phase === "waiting";
    },
    get phase() {
      return state.phase;
    },
    sock: {
      async sendMessage(jid: string, content: AnyMessageContent, opts?: { messageId?: string }) {
        const r = await state.send(jid, content);
        sent.push({ jid, content });
        return r ?? { key: { id: opts?.messageId } };
      },
    },
  };
  return { sessions: { get: () => session } as unknown as SessionManager, sent };
}

const sendCmd = (m: { companyId: number; whatsappId: number; id: string }): Extract<SessionCommand, { type: "send" }> => ({
  commandId: randomUUID(),
  type: "send",
  companyId: m.companyId,
  whatsappId: m.whatsappId,
  ticketId: 1,
  messageId: m.id,
});

describe("a runner killed mid-send", () => {
  it("never sends the message a second time: the next owner marks it failed and tells the agent, and a redelivered DONE command sends nothing", async () => {
    const mem = memoryStore();
    const m = mem.add(7, 8, "Bom dia");
    const cmd = sendCmd(m);
    let handed = false;
    // Runner A hands the message to WhatsApp and dies there (the call never returns); its claim expires at once.
    const a = fakeSessions({ phase: "open", send: () => {
        handed = true;
        return new Promise(() => undefined);
      } });
    void new CommandHandler({ sessions: a.sessions, store: mem.store, owner: "runner-a", claimMs: 1 }).handle(cmd);
    while (!handed) await new Promise((r) => setImmediate(r));

    const b = fakeSessions({ phase: "open", send: async () => undefined });
    const next = new CommandHandler({ sessions: b.sessions, store: mem.store, owner: "runner-b", claimMs: 60_000 });
    expect(await next.handle(cmd)).toBe("done");
    expect(b.sent).toEqual([]);
    expect(mem.messages.get(m.id)).toMatchObject({ ack: -1, sendError: "ERR_SENDING_WAPP_MSG" });
    expect(mem.published.filter((p) => p.id === m.id).map((p) => p.ack)).toEqual([-1]);

    // SQS delivers the DONE command again: acknowledged without sending.
    expect(await next.handle(cmd)).toBe("duplicate");
    expect(b.sent).toEqual([]);
  });

  it("keeps a message that a receipt shows as sent, without sending it again", async () => {
    const mem = memoryStore();
    const m = mem.add(7, 8, "Boa tarde");
    const cmd = sendCmd(m);
    let handed = false;
    const a = fakeSessions({ phase: "open", send: () => {
        handed = true;
        return new Promise(() => undefined);
      } });
    void new CommandHandler({ sessions: a.sessions, store: mem.store, owner: "runner-a", claimMs: 1 }).handle(cmd);
    while (!handed) await new Promise((r) => setImmediate(r));
    mem.messages.set(m.id, { ...mem.messages.get(m.id)!, ack: 2 }); // the receipt reached the ingest meanwhile

    const b = fakeSessions({ phase: "open", send: async () => undefined });
    expect(await new CommandHandler({ sessions: b.sessions, store: mem.store, owner: "runner-b" }).handle(cmd)).toBe("done");
    expect(b.sent).toEqual([]);
    expect(mem.messages.get(m.id)!.ack).toBe(2);
  });
});

describe("a connection held in reconnect", () => {
  it("keeps the command through 60 s of reconnecting and sends it once when the session is back", async () => {
    const mem = memoryStore();
    const m = mem.add(7, 9, "Olá");
    const cmd = sendCmd(m);
    const state = { phase: "waiting" as "open" | "waiting", send: async () => undefined };
    const s = fakeSessions(state);
    const h = new CommandHandler({ sessions: s.sessions, store: mem.store, owner: "runner-c" });
    // The controlled clock: each receive that meets the reconnecting session hides the command for the consumer's
    // backoff; the session stays away for 60 s of that clock.
    let clock = 0;
    let receives = 0;
    while (clock < 60) {
      receives++;
      const err = await h.handle(cmd).catch((e) => e);
      expect(err).toBeInstanceOf(RetryLater);
      clock += retryVisibility(receives, 15, (err as RetryLater).retryAfterSeconds);
    }
    // Still before the 5th receive (the DLQ), and the message was neither sent nor failed meanwhile.
    expect(receives).toBeLessThan(5);
    expect(mem.messages.get(m.id)!.ack).toBe(0);
    state.phase = "open";
    expect(await h.handle(cmd)).toBe("done");
    expect(s.sent).toHaveLength(1);
    expect(mem.messages.get(m.id)!.ack).toBe(1);
  });

  it("waits past another owner's live claim before trying again", async () => {
    const mem = memoryStore();
    const m = mem.add(7, 9, "Claim");
    const cmd = sendCmd(m);
    const a = fakeSessions({ phase: "open", send: () => new Promise(() => undefined) });
    void new CommandHandler({ sessions: a.sessions, store: mem.store, owner: "runner-a", claimMs: 120_000 }).handle(cmd);
    await new Promise((r) => setTimeout(r, 50));
    const b = fakeSessions({ phase: "open", send: async () => undefined });
    const err = await new CommandHandler({ sessions: b.sessions, store: mem.store, owner: "runner-b" }).handle(cmd).catch((e) => e);
    expect(err).toBeInstanceOf(RetryLater);
    expect(retryVisibility(1, 15, (err as RetryLater).retryAfterSeconds)).toBeGreaterThanOrEqual(119);
    expect(b.sent).toEqual([]);
  });
});

/** A company with an admin's socket, a CONNECTED connection, a ticket, and an outbound message stored at ack 0. */
async function pendingOutbound(body: string) {
  const { cid: companyId, admin } = await companies.fresh();
  const socket = await registerSocket(companyId, admin.id, "admin");
  const wa = await makeWhatsapp(companyId);
  const ticket = await makeTicket(companyId, { whatsappId: wa.id });
  const view = await sendOutbound(companyId, { userId: admin.id, name: "Admin" }, ticket, { body });
  const [cmd] = (await world.queues.drain(shardOf(wa.id))) as Extract<SessionCommand, { type: "send" }>[];
  return { companyId, ticket, socket, messageId: view.id, cmd };
}

const updatesTo = (socket: string, messageId: string) =>
  world.rt.frames.filter((f) => f.connectionId === socket && f.event.endsWith("-appMessage") && f.data.action === "update" && f.data.message.id === messageId);

describe("dead letters and the sweep", () => {
  it("marks a dead-lettered send failed and tells the agent; a message already sent is left alone", async () => {
    const p = await pendingOutbound("Pedido confirmado");
    expect(p.cmd).toMatchObject({ type: "send", messageId: p.messageId });
    const out = await commandDlq({ Records: [{ messageId: "dlq-1", body: JSON.stringify(p.cmd) }, { messageId: "dlq-2", body: "not json" }] });
    expect(out.batchItemFailures).toEqual([]);
    expect(await getMessage(p.companyId, p.ticket.id, p.messageId)).toMatchObject({ ack: -1, sendError: "ERR_SENDING_WAPP_MSG" });
    expect(updatesTo(p.socket, p.messageId).map((f) => f.data.message.ack)).toEqual([-1]);

    const sent = await pendingOutbound("Já enviado");
    await updateMessage(sent.companyId, sent.ticket.id, sent.messageId, { ack: 2 });
    await commandDlq({ Records: [{ messageId: "dlq-3", body: JSON.stringify(sent.cmd) }] });
    expect((await getMessage(sent.companyId, sent.ticket.id, sent.messageId))!.ack).toBe(2);
  });

  it("re-drives a message left at ack 0 past its deadline with the same command, then fails it at the next deadline", async () => {
    const p = await pendingOutbound("Seu boleto");
    const t0 = Date.now();
    expect((await sweepOutbound(t0)).redriven).toBe(0); // not due yet
    const first = await sweepOutbound(t0 + OUTBOUND_DEADLINE_MS + 1000);
    expect(first.redriven).toBeGreaterThanOrEqual(1);
    const again = await world.queues.drain(shardOf(p.cmd.whatsappId));
    expect(again).toEqual([p.cmd]); // the same command id: a runner that did send it answers "duplicate"
    expect((await getMessage(p.companyId, p.ticket.id, p.messageId))!.ack).toBe(0);

    const second = await sweepOutbound(t0 + 2 * OUTBOUND_DEADLINE_MS + 2000);
    expect(second.failed).toBeGreaterThanOrEqual(1);
    expect(await getMessage(p.companyId, p.ticket.id, p.messageId)).toMatchObject({ ack: -1, sendError: "ERR_SENDING_WAPP_MSG" });
    expect(updatesTo(p.socket, p.messageId).map((f) => f.data.message.ack)).toEqual([-1]);
    // Settled: a later sweep finds nothing of it.
    const later = await sweepOutbound(t0 + 3 * OUTBOUND_DEADLINE_MS);
    expect(later.failed + later.redriven).toBe(0);
  });

  it("finds a message left at ack 0 after the tick was down for two days: re-driven, then failed", async () => {
    const p = await pendingOutbound("Segue o contrato");
    const back = Date.now() + 2 * 24 * 3600_000; // the first tick after an outage of two days
    expect((await sweepOutbound(back)).redriven).toBeGreaterThanOrEqual(1);
    expect(await world.queues.drain(shardOf(p.cmd.whatsappId))).toContainEqual(p.cmd);
    expect((await sweepOutbound(back + OUTBOUND_DEADLINE_MS + 1000)).failed).toBeGreaterThanOrEqual(1);
    expect(await getMessage(p.companyId, p.ticket.id, p.messageId)).toMatchObject({ ack: -1, sendError: "ERR_SENDING_WAPP_MSG" });
  });

  it("forgets a message that was sent before its deadline", async () => {
    const p = await pendingOutbound("Chegou");
    await updateMessage(p.companyId, p.ticket.id, p.messageId, { ack: 1 });
    const t = Date.now() + OUTBOUND_DEADLINE_MS + 1000;
    expect((await sweepOutbound(t)).settled).toBeGreaterThanOrEqual(1);
    expect((await sweepOutbound(t + OUTBOUND_DEADLINE_MS * 2)).failed).toBe(0);
    expect((await getMessage(p.companyId, p.ticket.id, p.messageId))!.ack).toBe(1);
  });
});

/**
 * Every SQS send of this process from now on hangs, as a process that dies inside the enqueue would: what it stored
 * before stays, nothing after runs. `reached` resolves when a send got there; `revive` lets later sends through.
 */
function dieAtTheEnqueue(): { reached: Promise<void>; revive: () => void } {
  const name = "diesAtTheEnqueue";
  let died!: () => void;
  const reached = new Promise<void>((r) => (died = r));
  sqsClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== "SendMessageCommand") return next(args);
      died();
      return new Promise<never>(() => undefined);
    },
    { step: "initialize", name },
  );
  return { reached, revive: () => sqsClient().middlewareStack.remove(name) };
}

describe("a process that dies between storing an outbound message and enqueuing its send", () => {
  const paths = {
    "an agent's text": (companyId: number, userId: number, ticket: Awaited<ReturnType<typeof makeTicket>>) =>
      sendOutbound(companyId, { userId, name: "Admin" }, ticket, { body: "Seu pedido saiu" }),
    "an agent's file": (companyId: number, userId: number, ticket: Awaited<ReturnType<typeof makeTicket>>) =>
      sendOutbound(companyId, { userId, name: "Admin" }, ticket, {
        body: "boleto.pdf",
        signMessage: false,
        media: { key: `media/${companyId}/${ticket.id}/x.pdf`, mime: "application/pdf", name: "boleto.pdf", size: 10 },
      }),
    "an automatic text (bot, greeting, notice)": (companyId: number, _userId: number, ticket: Awaited<ReturnType<typeof makeTicket>>) =>
      sendAutomatic(companyId, ticket, "Bem-vindo! Escolha uma opção"),
  };

  it.each(Object.entries(paths))("leaves %s to the tick, which sends it (the same command) instead of leaving it at ack 0", async (_name, send) => {
    const { cid: companyId, admin } = await companies.fresh();
    const wa = await makeWhatsapp(companyId);
    const ticket = await makeTicket(companyId, { whatsappId: wa.id });
    const death = dieAtTheEnqueue();
    try {
      void send(companyId, admin.id, ticket);
      await death.reached;
    } finally {
      death.revive();
    }
    // The process stored the message and died in the enqueue: nothing reached the queue.
    const stored = (await listMessages(companyId, ticket.id, {})).messages;
    const [m] = stored;
    expect(m).toMatchObject({ fromMe: true, ack: 0 });
    expect(await world.queues.drain(shardOf(wa.id))).toEqual([]);

    // The tick past the deadline re-drives it: a runner receives its send command.
    await sweepOutbound(Date.now() + OUTBOUND_DEADLINE_MS + 1000);
    const redriven = (await world.queues.drain(shardOf(wa.id))) as Extract<SessionCommand, { type: "send" }>[];
    expect(redriven.filter((c) => c.messageId === m!.id).map((c) => c.type)).toEqual(["send"]);
    // Never sent at all: the next deadline fails it where the agent sees it (ack -1), never left at 0.
    await sweepOutbound(Date.now() + 2 * OUTBOUND_DEADLINE_MS + 2000);
    expect(await getMessage(companyId, ticket.id, m!.id)).toMatchObject({ ack: -1, sendError: "ERR_SENDING_WAPP_MSG" });
  });
});
