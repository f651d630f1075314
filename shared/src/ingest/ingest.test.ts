/**
 * Integration proof of the ingest service against DynamoDB Local: concurrent redelivery, racing first
 * messages of a new contact, LID → phone-number merge, new ticket after close, media failures, history without unread,
 * acks only moving forward, and payloads that must never throw.
 */
import { QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it, vi } from "vitest";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { findByWaId, forgetAliasLayout, getMessage, getMessageById, messageRecord } from "../messages/repository.ts";
import { MessageItem } from "../messages/schema.ts";
import { makeQueue, makeWhatsapp } from "../tickets/fixtures.testkit.ts";
import { writeTicketTransition } from "../tickets/repository.ts";
import { registerSocket } from "../users/realtime-capture.testkit.ts";
import { handleBaileysEvent, ingestOptions, type IngestContext } from "./index.ts";
import { freshCompanyId, setSetting, storedState, useIngestStack } from "./testkit.ts";

const capture = useIngestStack();

async function company(extra: Partial<IngestContext> = {}): Promise<IngestContext> {
  const companyId = freshCompanyId();
  await registerSocket(companyId, { id: 1, profile: "admin" });
  return { companyId, whatsappId: 3, ...extra };
}

const text = (key: Record<string, unknown>, body: string, pushName = "Maria Souza", ts = 1767366759) => ({
  key: { fromMe: false, ...key },
  message: { conversation: body },
  messageTimestamp: ts,
  pushName,
});
const upsert = (ctx: IngestContext, messages: unknown[], type = "notify") => handleBaileysEvent(ctx, "messages.upsert", { messages, type });
const framesOf = (ctx: IngestContext, name: string) => capture.frames.filter((f) => f.event === `company-${ctx.companyId}-${name}`);

describe("ingest races", () => {
  it("stores a message delivered three times concurrently once", async () => {
    const ctx = await company();
    const m = text({ remoteJid: "5511912340001@s.whatsapp.net", id: "3EB0DUP0000000000001" }, "oi, tudo bem?");
    const results = await Promise.all([upsert(ctx, [m]), upsert(ctx, [m]), upsert(ctx, [m])]);
    const st = await storedState(ctx.companyId);
    expect(st.messages.map((x) => x.body)).toEqual(["oi, tudo bem?"]);
    expect(st.contacts).toHaveLength(1);
    expect(st.tickets).toHaveLength(1);
    expect(st.tickets[0].unreadMessages).toBe(1);
    expect(results.flatMap((r) => r.skipped.map((s) => s.reason))).toEqual(["duplicate message", "duplicate message"]);
    expect(framesOf(ctx, "appMessage").filter((f) => f.data.action === "create")).toHaveLength(1);
  });

  it("gives two racing first messages of a new contact one contact and one ticket", async () => {
    const ctx = await company();
    await Promise.all([
      upsert(ctx, [text({ remoteJid: "5511912340002@s.whatsapp.net", id: "RACE-A" }, "primeira")]),
      upsert(ctx, [text({ remoteJid: "5511912340002@s.whatsapp.net", id: "RACE-B" }, "segunda", "Maria Souza", 1767366760)]),
    ]);
    const st = await storedState(ctx.companyId);
    expect(st.contacts).toHaveLength(1);
    expect(st.contacts[0]).toMatchObject({ name: "Maria Souza", number: "5511912340002" });
    expect(st.tickets).toHaveLength(1);
    expect(st.tickets[0].unreadMessages).toBe(2);
    expect(st.messages.map((m) => [m.body, m.ticketId])).toEqual([
      ["primeira", st.tickets[0].id],
      ["segunda", st.tickets[0].id],
    ]);
  });

  it("keeps one contact when a LID message is followed by the same person's phone-number message", async () => {
    const ctx = await company();
    await upsert(ctx, [text({ remoteJid: "100000000000077@lid", id: "LID-1" }, "pelo LID")]);
    // Baileys 7: a phone-addressed message names the LID in remoteJidAlt.
    await upsert(ctx, [text({ remoteJid: "5511912340003@s.whatsapp.net", remoteJidAlt: "100000000000077@lid", addressingMode: "pn", id: "PN-1" }, "pelo número", "Maria", 1767366800)]);
    const st = await storedState(ctx.companyId);
    expect(st.contacts).toHaveLength(1);
    expect(st.contacts[0]).toMatchObject({ number: "5511912340003", name: "Maria Souza" });
    expect([...st.contacts[0].jids].sort()).toEqual(["100000000000077@lid", "5511912340003@s.whatsapp.net"]);
    expect(st.tickets).toHaveLength(1);
    expect(st.messages.map((m) => m.body)).toEqual(["pelo LID", "pelo número"]);
  });

  it("merges through the 6.7.x senderPn field too", async () => {
    const ctx = await company();
    await upsert(ctx, [text({ remoteJid: "5511912340004@s.whatsapp.net", id: "PN-2" }, "pelo número")]);
    await upsert(ctx, [text({ remoteJid: "100000000000078@lid", senderPn: "5511912340004@s.whatsapp.net", id: "LID-2" }, "pelo LID", "Maria", 1767366800)]);
    const st = await storedState(ctx.companyId);
    expect(st.contacts).toHaveLength(1);
    expect(st.tickets).toHaveLength(1);
  });
});

describe("tickets", () => {
  it("starts a new pending ticket when the customer writes after close, and keeps the old one readable", async () => {
    const ctx = await company();
    await upsert(ctx, [text({ remoteJid: "5511912340005@s.whatsapp.net", id: "OLD-1" }, "antes")]);
    const first = (await storedState(ctx.companyId)).tickets[0];
    await writeTicketTransition(first, { status: "closed", updatedAt: new Date().toISOString() });
    await upsert(ctx, [text({ remoteJid: "5511912340005@s.whatsapp.net", id: "NEW-1" }, "depois", "Maria Souza", 1767366900)]);
    const st = await storedState(ctx.companyId);
    expect(st.contacts).toHaveLength(1);
    const byId = new Map(st.tickets.map((t) => [t.id, t]));
    expect(st.tickets).toHaveLength(2);
    const old = st.messages.find((m) => m.id === "OLD-1")!;
    const fresh = st.messages.find((m) => m.id === "NEW-1")!;
    expect(old.ticketId).toBe(first.id);
    expect(byId.get(old.ticketId)?.status).toBe("closed");
    expect(fresh.ticketId).not.toBe(first.id);
    expect(byId.get(fresh.ticketId)).toMatchObject({ status: "pending", unreadMessages: 1, lastMessage: "depois" });
  });

  it("stores a text redelivered to an open ticket once, and never opens a ticket for one redelivered after close", async () => {
    const ctx = await company();
    const m = text({ remoteJid: "5511912340015@s.whatsapp.net", id: "REDELIVER-1" }, "só uma vez");
    await upsert(ctx, [m]);
    const again = await upsert(ctx, [m]);
    expect(again.skipped.map((x) => x.reason)).toEqual(["duplicate message"]);
    const first = (await storedState(ctx.companyId)).tickets[0];
    expect(first.unreadMessages).toBe(1);
    await writeTicketTransition(first, { status: "closed", updatedAt: new Date().toISOString() });
    const late = await upsert(ctx, [m]);
    expect(late.skipped.map((x) => x.reason)).toEqual(["duplicate message"]);
    const st = await storedState(ctx.companyId);
    expect(st.tickets.map((t) => t.status)).toEqual(["closed"]);
    expect(st.messages.map((x) => x.id)).toEqual(["REDELIVER-1"]);
  });

  it("adds an own message sent from the phone after close to the closed ticket without reopening it", async () => {
    const ctx = await company();
    const chat = "5511912340015@s.whatsapp.net";
    await upsert(ctx, [text({ remoteJid: chat, id: "IN-1" }, "obrigado")]);
    const first = (await storedState(ctx.companyId)).tickets[0];
    await writeTicketTransition(first, { status: "closed", updatedAt: new Date().toISOString() });
    await upsert(ctx, [{ key: { remoteJid: chat, fromMe: true, id: "OWN-1" }, message: { conversation: "por nada!" }, messageTimestamp: 1767366900 }]);
    const st = await storedState(ctx.companyId);
    expect(st.tickets).toHaveLength(1);
    expect(st.tickets[0]).toMatchObject({ id: first.id, status: "closed", lastMessage: "por nada!" });
    expect(st.messages.map((m) => [m.body, m.fromMe])).toEqual([
      ["obrigado", false],
      ["por nada!", true],
    ]);
  });

  it("stores history (append) messages without counting them unread", async () => {
    const ctx = await company();
    await upsert(ctx, [text({ remoteJid: "5511912340006@s.whatsapp.net", id: "HIST-1" }, "antigo")], "append");
    const st = await storedState(ctx.companyId);
    expect(st.messages).toHaveLength(1);
    expect(st.tickets[0]).toMatchObject({ unreadMessages: 0, lastMessage: "antigo" });
  });
});

describe("media", () => {
  const image = (id: string) => ({
    key: { remoteJid: "5511912340007@s.whatsapp.net", fromMe: false, id },
    message: { imageMessage: { mimetype: "image/jpeg", caption: "foto", url: "https://mmg.whatsapp.net/x" } },
    messageTimestamp: 1767366759,
    pushName: "Maria",
  });

  it("keeps the message, marked, when the download fails", async () => {
    const ctx = await company({ downloadMedia: async () => Promise.reject(new Error("403 from CDN")) });
    await upsert(ctx, [image("IMG-FAIL")]);
    const [m] = (await storedState(ctx.companyId)).messages;
    expect(m).toMatchObject({ id: "IMG-FAIL", mediaType: "image", body: "foto", mediaError: true, mediaKey: null });
  });

  it("keeps the message, marked, when the download outlives the time limit", async () => {
    const saved = ingestOptions.mediaTimeoutMs;
    ingestOptions.mediaTimeoutMs = 50;
    try {
      const ctx = await company({ downloadMedia: () => new Promise(() => undefined) });
      await upsert(ctx, [image("IMG-SLOW")]);
      const [m] = (await storedState(ctx.companyId)).messages;
      expect(m).toMatchObject({ id: "IMG-SLOW", mediaError: true, mediaKey: null });
    } finally {
      ingestOptions.mediaTimeoutMs = saved;
    }
  });

  it("downloads a redelivered media message only once", async () => {
    let downloads = 0;
    const ctx = await company({
      downloadMedia: async () => {
        downloads++;
        return { bytes: Buffer.from("jpeg"), mimetype: "image/jpeg" };
      },
    });
    await upsert(ctx, [image("IMG-TWICE")]);
    await upsert(ctx, [image("IMG-TWICE")]);
    expect(downloads).toBe(1);
    expect((await storedState(ctx.companyId)).messages).toHaveLength(1);
  });
});

describe("updates", () => {
  it("moves acks only forward", async () => {
    const ctx = await company();
    await upsert(ctx, [{ key: { remoteJid: "5511912340008@s.whatsapp.net", fromMe: true, id: "OUT-1" }, message: { conversation: "olá" }, messageTimestamp: 1767366759, status: "SERVER_ACK" }], "append");
    const ack = (status: unknown) => handleBaileysEvent(ctx, "messages.update", [{ key: { remoteJid: "5511912340008@s.whatsapp.net", fromMe: true, id: "OUT-1" }, update: { status } }]);
    await ack(4);
    await ack("DELIVERY_ACK");
    expect((await storedState(ctx.companyId)).messages[0].ack).toBe(4);
    await handleBaileysEvent(ctx, "message-receipt.update", [{ key: { remoteJid: "5511912340008@s.whatsapp.net", fromMe: true, id: "OUT-1" }, receipt: { userJid: "5511912340008@s.whatsapp.net", playedTimestamp: 1767366800 } }]);
    expect((await storedState(ctx.companyId)).messages[0].ack).toBe(5);
  });

  it("finds an own message acknowledged under the contact's LID", async () => {
    const ctx = await company();
    await upsert(ctx, [{ key: { remoteJid: "5511912340009@s.whatsapp.net", fromMe: true, id: "OUT-2" }, message: { conversation: "olá" }, messageTimestamp: 1767366759, status: 2 }], "append");
    await handleBaileysEvent(ctx, "messages.update", [{ key: { remoteJid: "100000000000079@lid", fromMe: true, id: "OUT-2" }, update: { status: 3 } }]);
    expect((await storedState(ctx.companyId)).messages[0].ack).toBe(3);
  });

  it("ignores an edit that does not come from the message's author", async () => {
    const ctx = await company();
    await upsert(ctx, [{ key: { remoteJid: "5511912340010@s.whatsapp.net", fromMe: true, id: "MINE-1" }, message: { conversation: "nosso texto" }, messageTimestamp: 1767366759 }], "append");
    const out = await upsert(ctx, [
      {
        key: { remoteJid: "5511912340010@s.whatsapp.net", fromMe: false, id: "EDIT-X" },
        message: { protocolMessage: { key: { id: "MINE-1" }, type: "MESSAGE_EDIT", editedMessage: { conversation: "adulterado" } } },
      },
    ]);
    expect(out.skipped).toEqual([{ reason: "edit by someone other than the author" }]);
    expect((await storedState(ctx.companyId)).messages[0]).toMatchObject({ body: "nosso texto", isEdited: false });
  });

  it("removes a reaction when the same person sends an empty one", async () => {
    const ctx = await company();
    const chat = "5511912340011@s.whatsapp.net";
    await upsert(ctx, [text({ remoteJid: chat, id: "T-1" }, "oi")]);
    const react = (emoji: string, id: string) => upsert(ctx, [{ key: { remoteJid: chat, fromMe: false, id }, message: { reactionMessage: { key: { remoteJid: chat, id: "T-1" }, text: emoji, senderTimestampMs: "1767366770998" } } }]);
    await react("👍", "R-1");
    await react("😂", "R-2");
    expect((await storedState(ctx.companyId)).messages[0].reactions.map((r) => r.emoji)).toEqual(["😂"]);
    await react("", "R-3");
    expect((await storedState(ctx.companyId)).messages[0].reactions).toEqual([]);
  });

  it("clears the ticket's presence when the contact stops typing", async () => {
    const ctx = await company();
    const chat = "5511912340012@s.whatsapp.net";
    await upsert(ctx, [text({ remoteJid: chat, id: "P-1" }, "oi")]);
    await handleBaileysEvent(ctx, "presence.update", { id: chat, presences: { [chat]: { lastKnownPresence: "recording" } } });
    expect((await storedState(ctx.companyId)).tickets[0].presence).toBe("recording");
    await handleBaileysEvent(ctx, "presence.update", { id: chat, presences: { [chat]: { lastKnownPresence: "paused" } } });
    expect((await storedState(ctx.companyId)).tickets[0].presence).toBe("");
  });
});

describe("contacts and groups", () => {
  it("names a group from groups.update and a number-named contact from contacts.update", async () => {
    const ctx = await company();
    await upsert(ctx, [{ key: { remoteJid: "5511912340013@s.whatsapp.net", fromMe: true, id: "O-1" }, message: { conversation: "olá" }, messageTimestamp: 1767366759 }], "append");
    await handleBaileysEvent(ctx, "contacts.update", [{ id: "5511912340013@s.whatsapp.net", notify: "João Lima", imgUrl: "https://pps.whatsapp.net/v/pic.jpg" }]);
    await handleBaileysEvent(ctx, "contacts.upsert", [{ id: "5511999999999@s.whatsapp.net", name: "Agenda" }]);
    const st = await storedState(ctx.companyId);
    expect(st.contacts).toHaveLength(1);
    expect(st.contacts[0]).toMatchObject({ name: "João Lima", profilePicUrl: "https://pps.whatsapp.net/v/pic.jpg" });
  });

  it("merges a LID and a phone number revealed by contacts.upsert", async () => {
    const ctx = await company();
    await upsert(ctx, [text({ remoteJid: "100000000000080@lid", id: "L-1" }, "oi")]);
    await handleBaileysEvent(ctx, "contacts.upsert", [{ id: "100000000000080@lid", phoneNumber: "5511912340014@s.whatsapp.net" }]);
    await upsert(ctx, [text({ remoteJid: "5511912340014@s.whatsapp.net", id: "P-2" }, "de novo", "Maria", 1767366800)]);
    const st = await storedState(ctx.companyId);
    expect(st.contacts).toHaveLength(1);
    expect(st.contacts[0].number).toBe("5511912340014");
    expect(st.tickets).toHaveLength(1);
  });
});

describe("bad payloads", () => {
  it("never throws and stores nothing for malformed events", async () => {
    const ctx = await company();
    const cases: [string, unknown][] = [
      ["messages.upsert", "garbage"],
      ["messages.upsert", null],
      ["messages.upsert", { messages: [null, 5, {}, { key: "x" }, { key: { id: "A" } }, { key: { remoteJid: "x@s.whatsapp.net" }, message: { conversation: "sem id" } }] }],
      ["messages.update", { not: "an array" }],
      ["messages.update", [{ key: {}, update: {} }, null]],
      ["messages.reaction", [{ key: { id: 5 } }]],
      ["message-receipt.update", [{ key: { remoteJid: "1@s.whatsapp.net", id: "Z" }, receipt: {} }]],
      ["presence.update", { id: 12 }],
      ["call", [{ id: "C", status: "offer" }, "x"]],
      ["contacts.update", [{ imgUrl: 5 }]],
      ["groups.update", [{ id: "x@s.whatsapp.net", subject: "n" }]],
      ["chats.update", "x"],
    ];
    for (const [event, data] of cases) {
      const out = await handleBaileysEvent(ctx, event, data);
      expect(out.handled).toBe(true);
      expect(out.skipped.length).toBeGreaterThan(0);
    }
    const st = await storedState(ctx.companyId);
    expect(st.itemCount).toBe(0);
  });

  it("answers events it does not ingest with handled:false", async () => {
    const ctx = await company();
    expect(await handleBaileysEvent(ctx, "creds.update", {})).toEqual({ handled: false, skipped: [{ reason: "event not ingested: creds.update" }] });
    expect((await handleBaileysEvent(ctx, "messaging-history.set", {})).handled).toBe(false);
  });
});

describe("identity events", () => {
  it("merges a LID and its phone number on lid-mapping.update, creating nobody new", async () => {
    const ctx = await company();
    await upsert(ctx, [text({ remoteJid: "100000000000081@lid", id: "LM-1" }, "oi")]);
    await handleBaileysEvent(ctx, "lid-mapping.update", { lid: "100000000000081@lid", pn: "5511912340016@s.whatsapp.net" });
    const unknown = await handleBaileysEvent(ctx, "lid-mapping.update", { lid: "100000000000082@lid", pn: "5511912340017@s.whatsapp.net" });
    expect(unknown.skipped).toEqual([{ reason: "mapping for a person without a contact" }]);
    await upsert(ctx, [text({ remoteJid: "5511912340016@s.whatsapp.net", id: "LM-2" }, "pelo número", "Maria", 1767366800)]);
    const st = await storedState(ctx.companyId);
    expect(st.contacts).toHaveLength(1);
    expect(st.contacts[0].number).toBe("5511912340016");
    expect(st.tickets).toHaveLength(1);
  });

  it("names a new group after its subject when the runner can tell it, and renames it on groups.update", async () => {
    const ctx = await company({ groupSubject: async (jid) => (jid === "120363000000000001@g.us" ? "Equipe Vendas" : null) });
    await setSetting(ctx.companyId, "CheckMsgIsGroup", "disabled");
    await upsert(ctx, [{ key: { remoteJid: "120363000000000001@g.us", participant: "5511912340018@s.whatsapp.net", fromMe: false, id: "G-1" }, message: { conversation: "bom dia" }, pushName: "Ana" }]);
    expect((await storedState(ctx.companyId)).contacts[0].name).toBe("Equipe Vendas");
    await handleBaileysEvent(ctx, "groups.update", [{ id: "120363000000000001@g.us", subject: "Equipe Vendas 2" }]);
    const st = await storedState(ctx.companyId);
    expect(st.contacts).toHaveLength(1);
    expect(st.contacts[0]).toMatchObject({ isGroup: true, name: "Equipe Vendas 2" });
    expect(st.messages[0]).toMatchObject({ senderName: "Ana", participant: "5511912340018@s.whatsapp.net" });
  });
});

describe("oversized payloads", () => {
  it("skips ids and JIDs too long to be real instead of failing on the table's key limits", async () => {
    const ctx = await company();
    const long = "9".repeat(3000);
    const results = [
      await upsert(ctx, [text({ remoteJid: "5511912340019@s.whatsapp.net", id: long }, "x")]),
      await upsert(ctx, [text({ remoteJid: `${long}@s.whatsapp.net`, id: "OK-ID" }, "x")]),
      await handleBaileysEvent(ctx, "messages.update", [{ key: { remoteJid: "5511912340019@s.whatsapp.net", id: long }, update: { status: 3 } }]),
      await handleBaileysEvent(ctx, "groups.update", [{ id: `${long}@g.us`, subject: "Grupo" }]),
      await handleBaileysEvent(ctx, "presence.update", { id: `${long}@g.us`, presences: {} }),
    ];
    for (const r of results) expect(r.skipped).toHaveLength(1);
    expect((await storedState(ctx.companyId)).itemCount).toBe(0);
  });

  it("cuts a text longer than WhatsApp allows and keeps the ticket preview short", async () => {
    const ctx = await company();
    await upsert(ctx, [text({ remoteJid: "5511912340020@s.whatsapp.net", id: "LONG-1" }, "é".repeat(100_000))]);
    const st = await storedState(ctx.companyId);
    expect(st.messages[0].body).toHaveLength(65_536);
    expect(st.tickets[0].lastMessage).toHaveLength(1_000);
  });
});

describe("view-once", () => {
  it("tells the agent to look at the phone when only a view-once key arrives", async () => {
    const ctx = await company();
    await upsert(ctx, [{ key: { remoteJid: "5511912340021@s.whatsapp.net", remoteJidAlt: "100000000000083@lid", addressingMode: "pn", fromMe: false, id: "3A0000VIEWONCE00001", participant: "", isViewOnce: true }, messageTimestamp: 1764041635, pushName: "Contact A" }]);
    const st = await storedState(ctx.companyId);
    expect(st.messages.map((m) => [m.body, m.mediaType])).toEqual([["📷 Mensagem de visualização única: abra no celular para ver", "chat"]]);
    expect(st.tickets[0].unreadMessages).toBe(1);
  });

  it("shows view-once media that still arrives wrapped as ordinary media", async () => {
    const ctx = await company({ downloadMedia: async () => ({ bytes: Buffer.from("jpeg"), mimetype: "image/jpeg" }) });
    await upsert(ctx, [{ key: { remoteJid: "5511912340022@s.whatsapp.net", fromMe: false, id: "3A0000VIEWONCE00002" }, message: { viewOnceMessageV2: { message: { imageMessage: { mimetype: "image/jpeg", caption: "só uma vez", viewOnce: true } } } }, messageTimestamp: 1764041635 }]);
    const [m] = (await storedState(ctx.companyId)).messages;
    expect(m).toMatchObject({ mediaType: "image", body: "só uma vez", mediaError: false });
  });
});

describe("message order", () => {
  it("keeps a burst of messages sent within one second in the order they arrived", async () => {
    const ctx = await company();
    // The burst arrives 100 ms apart within one second, on a clock the test holds (a busy machine cannot stretch it).
    const second = Math.floor(Date.now() / 1000) + 1;
    vi.useFakeTimers({ toFake: ["Date"], now: second * 1000 });
    try {
      // Ids chosen so that their sort order is the reverse of the arrival order.
      for (const [i, id] of ["3A0000BURST0000Z", "3A0000BURST0000M", "3A0000BURST0000A"].entries()) {
        vi.setSystemTime(second * 1000 + 100 * (i + 1));
        await upsert(ctx, [text({ remoteJid: "5511912340031@s.whatsapp.net", id }, `parte ${i + 1}`, "Rui", second)]);
      }
    } finally {
      vi.useRealTimers();
    }
    const st = await storedState(ctx.companyId);
    expect(st.messages.map((m) => m.body)).toEqual(["parte 1", "parte 2", "parte 3"]);
    expect(st.messages.every((m) => m.waTimestamp.startsWith(new Date(second * 1000).toISOString().slice(0, 19)))).toBe(true);
  });
});

describe("queue of a new ticket", () => {
  it("puts a customer's new ticket in the connection's queue when it has exactly one, and in none when it has more", async () => {
    const ctx = await company();
    const [a, b] = [await makeQueue(ctx.companyId), await makeQueue(ctx.companyId)];
    const single = await makeWhatsapp(ctx.companyId, { queueIds: [a.id] });
    const multi = await makeWhatsapp(ctx.companyId, { queueIds: [a.id, b.id], isDefault: false });
    await upsert({ ...ctx, whatsappId: single.id }, [text({ remoteJid: "5511912340041@s.whatsapp.net", id: "3A0000QUEUE0000001" }, "oi")]);
    await upsert({ ...ctx, whatsappId: multi.id }, [text({ remoteJid: "5511912340042@s.whatsapp.net", id: "3A0000QUEUE0000002" }, "oi")]);
    const st = await storedState(ctx.companyId);
    const byConnection = Object.fromEntries(st.tickets.map((t) => [t.whatsappId, t.queueId]));
    expect(byConnection).toEqual({ [single.id]: a.id, [multi.id]: null });
  });
});

describe("stored message item", () => {
  it("leaves out the fields at their default and reads back as the message the agent was shown", async () => {
    const ctx = await company();
    await upsert(ctx, [text({ remoteJid: "5511912340051@s.whatsapp.net", id: "3A0000SLIM00000001" }, "quero saber do meu pedido")]);
    const [ticket] = (await storedState(ctx.companyId)).tickets;
    const out = await ddb().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: "PK = :pk AND begins_with(SK, :m)", ExpressionAttributeValues: { ":pk": keys.ticketPartition(ctx.companyId, ticket.id), ":m": keys.messagePrefix }, ConsistentRead: true }),
    );
    const [raw] = out.Items ?? [];
    // A customer's plain text: no media, quote, reaction, edit, sender or error, unread, ack 0.
    const defaulted = ["participant", "senderName", "read", "mediaType", "mediaKey", "mediaName", "mediaMime", "mediaSize", "mediaError", "ack", "isDeleted", "isEdited", "previousBody", "isForwarded", "quotedMsgId", "quotedMsg", "reactions", "userId", "isAutomatic", "sendError"];
    expect(defaulted.filter((k) => k in raw)).toEqual([]);
    expect(Object.entries(raw).filter(([, v]) => v === null || (Array.isArray(v) && !v.length))).toEqual([]);
    expect(raw).toMatchObject({ body: "quero saber do meu pedido", fromMe: false, remoteJid: "5511912340051@s.whatsapp.net", contactId: ticket.contactId });
    // Read back, the defaults are filled in: the same message the realtime frame carried, field for field.
    const [frame] = framesOf(ctx, "appMessage");
    const { mediaUrl: _url, ...shown } = frame.data.message as Record<string, unknown>;
    expect(await getMessage(ctx.companyId, ticket.id, "3A0000SLIM00000001")).toEqual(shown);
    expect(shown).toMatchObject({ read: false, ack: 0, mediaType: "chat", quotedMsg: null, reactions: [], isDeleted: false, sendError: null });
  });
});

describe("message aliases stored before the merged layout", () => {
  it("a message's dedupe key and id location are one item; one stored with the older pair stays found, acked and deduped", async () => {
    const ctx = await company();
    const jid = "5511912340077@s.whatsapp.net";
    await upsert(ctx, [text({ remoteJid: jid, id: "NEWLAYOUT1" }, "primeira")]);
    const [ticket] = (await storedState(ctx.companyId)).tickets;
    // The merged layout: one alias in the id's partition, no separate WhatsApp alias.
    const idItems = await ddb().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": keys.messageRefPK(ctx.companyId, "NEWLAYOUT1") }, ConsistentRead: true }));
    expect(idItems.Items?.map((i) => i.SK)).toEqual([`WA#${ctx.whatsappId}#${jid}`]);
    const older = await ddb().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": keys.waMessage(ctx.companyId, ctx.whatsappId, jid, "NEWLAYOUT1").PK } }));
    expect(older.Items).toEqual([]);
    expect((await getMessageById(ctx.companyId, "NEWLAYOUT1"))?.body).toBe("primeira");

    // A message stored as before the merge (WhatsApp alias + id reference), on a table that started merging just now.
    const at = new Date(Date.now() - 60_000).toISOString();
    const m = MessageItem.parse({ id: "OLDLAYOUT1", ticketId: ticket.id, companyId: ctx.companyId, contactId: ticket.contactId, whatsappId: ctx.whatsappId, remoteJid: jid, body: "antiga", fromMe: false, waTimestamp: at, createdAt: at, updatedAt: at });
    const sk = keys.message(ctx.companyId, ticket.id, at, m.id).SK;
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: messageRecord(m) } },
          { Put: { TableName: tableName(), Item: { ...keys.waMessage(ctx.companyId, ctx.whatsappId, jid, m.id), _type: "waMessage", ticketId: ticket.id, messageSK: sk, messageId: m.id, fromMe: false } } },
          { Put: { TableName: tableName(), Item: { ...keys.messageRef(ctx.companyId, m.id, ticket.id), _type: "messageRef", ticketId: ticket.id, messageSK: sk, createdAt: at } } },
        ],
      }),
    );
    forgetAliasLayout(Date.now());
    try {
      expect((await findByWaId(ctx.companyId, ctx.whatsappId, jid, "OLDLAYOUT1"))?.body).toBe("antiga");
      expect((await getMessageById(ctx.companyId, "OLDLAYOUT1"))?.body).toBe("antiga");
      // Its redelivery (a customer's text on the open ticket) is refused, and its ack lands on it.
      const again = await upsert(ctx, [text({ remoteJid: jid, id: "OLDLAYOUT1" }, "antiga", "Maria Souza", Math.floor(Date.parse(at) / 1000))]);
      expect(again.skipped.map((x) => x.reason)).toEqual(["duplicate message"]);
      await handleBaileysEvent(ctx, "messages.update", [{ key: { remoteJid: jid, fromMe: false, id: "OLDLAYOUT1" }, update: { status: 4 } }]);
      const st = await storedState(ctx.companyId);
      expect(Object.fromEntries(st.messages.map((x) => [x.id, x.ack]))).toEqual({ NEWLAYOUT1: 0, OLDLAYOUT1: 4 });
      expect(st.tickets[0].unreadMessages).toBe(1);
    } finally {
      forgetAliasLayout();
    }
  });
});
