import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { nowIso } from "../common.ts";
import { createContact, deleteContact, listContacts, updateContact } from "../contacts/service.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { handleBaileysEvent } from "../ingest/index.ts";
import { ingestMessage, listMessages, updateMessage } from "../messages/repository.ts";
import { MessageItem } from "../messages/schema.ts";
import { makeContact, makeQueue, makeTicket, makeWhatsapp } from "../tickets/fixtures.testkit.ts";
import { listTickets, type TicketActor } from "../tickets/service.ts";
import type { TicketItem } from "../tickets/schema.ts";
import { injectDdbFaults } from "../ingest/faults.testkit.ts";
import { deleteTicketByAdmin } from "../tickets/actions.ts";
import "../tickets/remains.ts";
import { getTimer, runDueTimers } from "../timers/index.ts";
import { settleDeferred } from "../events/index.ts";
import { TICKET_REMAINS } from "../timers/kinds.ts";
import { contactGrams, messageWords, queryTokens, snippetOf } from "./tokens.ts";

const admin = (companyId: number): TicketActor => ({ userId: 1, companyId, profile: "admin", name: "Admin", queueIds: [], allTicket: "desabled" });
const agent = (companyId: number, userId: number, queueIds: number[]): TicketActor => ({ userId, companyId, profile: "user", name: "Agente", queueIds, allTicket: "desabled" });

let msgSeq = 0;
/** Stores a message in the ticket through the repository's write (the path inbound and outbound messages take). */
async function say(t: TicketItem, body: string, fromMe = false): Promise<MessageItem> {
  const now = nowIso();
  const m = MessageItem.parse({ id: `SRCH${++msgSeq}`, ticketId: t.id, companyId: t.companyId, whatsappId: t.whatsappId, remoteJid: "x@s.whatsapp.net", body, fromMe, waTimestamp: now, createdAt: now, updatedAt: now });
  const { createdAt: _c, updatedAt: _u, ...toStore } = m;
  return (await ingestMessage(t.companyId, t, toStore, { lastMessage: body, incrementUnread: !fromMe, waAliasJid: "x@s.whatsapp.net" })).message;
}

const ids = async (a: TicketActor, searchParam: string) => (await listTickets(a, { searchParam })).tickets.map((t) => t.id).sort((x, y) => x - y);
const names = async (cid: number, searchParam: string) => (await listContacts(cid, { searchParam })).contacts.map((c) => c.name);

describe("tokens", () => {
  it("folds accents and case and splits emails and numbers into words", () => {
    expect(queryTokens("  João LIMA ")).toEqual([{ text: "joao", digits: false }, { text: "lima", digits: false }]);
    expect(queryTokens("+55 (11) 9777-1")).toEqual([{ text: "551197771", digits: true }]);
    expect(messageWords("Quero o REEMBOLSO do pedido 4521, por favor! Reembolso.")).toEqual(["quero", "reembolso", "pedido", "4521", "favor"]);
    expect(contactGrams({ name: "Ana", number: "5511977", email: "a@ex.io" })).toEqual(["5511", "5119", "1197", "1977", "ana"]);
  });

  it("cuts a snippet around the word's first occurrence, accents and case ignored", () => {
    expect(snippetOf("Olá,\n meu pedido de  Reembolso", "reembolso")).toBe("Olá, meu pedido de Reembolso");
    expect(snippetOf("Conceição chegou", "conceicao")).toBe("Conceição chegou");
    expect(snippetOf("nada aqui", "reembolso")).toBe("");
    const long = `${"palavra ".repeat(20)}o reembolso ${"depois ".repeat(40)}`;
    const s = snippetOf(long, "reembolso");
    expect(s.length).toBeLessThanOrEqual(120);
    expect(s.startsWith("…")).toBe(true);
    expect(s.endsWith("…")).toBe(true);
    expect(s).toContain("palavra o reembolso depois");
  });
});

describe("ticket search", () => {
  it("finds tickets by a word of their messages, several words, any case, and a run of digits of the number", async () => {
    const cid = 20;
    const wa = await makeWhatsapp(cid);
    const a = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Carla Mendes", "5511912340000") });
    const b = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Bruno Alves", "5511998888123") });
    const c = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Diego Reis", "5511955556666") });
    await say(a, "Olá, quero o reembolso da minha compra");
    await say(a, "O pedido 4521 veio errado", true);
    await say(b, "Teste de envio");
    await say(c, "pedido 7000 chegou, obrigado");
    expect(await ids(admin(cid), "reembolso")).toEqual([a.id]);
    expect(await ids(admin(cid), "REEMBOLSO")).toEqual([a.id]);
    expect(await ids(admin(cid), "pedido 4521")).toEqual([a.id]);
    expect(await ids(admin(cid), "pedido")).toEqual([a.id, c.id]);
    expect(await ids(admin(cid), "Teste")).toEqual([b.id]);
    expect(await ids(admin(cid), "98888")).toEqual([b.id]);
    expect(await ids(admin(cid), "pedido 9999")).toEqual([]);
    expect(await ids(admin(cid), "reembolsos")).toEqual([]);
    const shop = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Loja 20001", "5511900000001") });
    expect(await ids(admin(cid), "20001")).toEqual([shop.id]);
  }, 90_000);

  it("shows, for a ticket found by a message word, that message's text around the word; none for a contact match", async () => {
    const cid = 29;
    const wa = await makeWhatsapp(cid);
    const t = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Renata Prado", "5511933332222") });
    await say(t, "Sobre o reembolso: enviei o comprovante");
    const first = await say(t, "Bom dia, o meu Reembolso do pedido 4521 ainda não caiu na conta");
    await say(t, "Alguma novidade?");
    await say(t, "Obrigada, aguardo.", true);
    const found = async (q: string) => (await listTickets(admin(cid), { searchParam: q })).tickets.map((x) => [x.id, x.lastMessage, x.searchSnippet]);
    // The row's last message is "Obrigada, aguardo."; the search shows the message holding the word.
    expect(await found("reembolso")).toEqual([[t.id, "Obrigada, aguardo.", "Bom dia, o meu Reembolso do pedido 4521 ainda não caiu na conta"]]);
    expect(await found("renata")).toEqual([[t.id, "Obrigada, aguardo.", undefined]]);
    // Edited away from that message while an earlier message still holds the word: the snippet follows the earlier one.
    await updateMessage(cid, t.id, first.id, { body: "Bom dia, o meu pedido 4521 ainda não caiu na conta", previousBody: first.body, isEdited: true });
    expect(await found("reembolso")).toEqual([[t.id, "Obrigada, aguardo.", "Sobre o reembolso: enviei o comprovante"]]);
  }, 60_000);

  it("finds tickets by any word of the contact's name, without accents, and by its email", async () => {
    const cid = 21;
    const wa = await makeWhatsapp(cid);
    const joao = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "João Pedro Lima", "5511911112222") });
    const other = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Mariana Souza", "5511933334444") });
    await updateContact(cid, other.contactId, { email: "mariana@exemplo.com.br" });
    expect(await ids(admin(cid), "joao")).toEqual([joao.id]);
    expect(await ids(admin(cid), "Lima")).toEqual([joao.id]);
    expect(await ids(admin(cid), "lim")).toEqual([joao.id]);
    expect(await ids(admin(cid), "pedro lima")).toEqual([joao.id]);
    expect(await ids(admin(cid), "exemplo")).toEqual([other.id]);
    expect(await ids(admin(cid), "souza lima")).toEqual([]);
  });

  it("finds a ticket by a contact word and a message word together", async () => {
    const cid = 22;
    const wa = await makeWhatsapp(cid);
    const lima = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Rita Lima", "5511922220001") });
    const lima2 = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Caio Lima", "5511922220002") });
    const other = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Rui Costa", "5511922220003") });
    await say(lima, "preciso de um reembolso");
    await say(lima2, "bom dia");
    await say(other, "reembolso por favor");
    expect(await ids(admin(cid), "Lima reembolso")).toEqual([lima.id]);
  });

  it("indexes what the ingest stores from WhatsApp, and forgets edited and deleted words", async () => {
    const cid = 23;
    const wa = await makeWhatsapp(cid);
    await handleBaileysEvent({ companyId: cid, whatsappId: wa.id }, "messages.upsert", {
      type: "notify",
      messages: [{ key: { remoteJid: "5511944445555@s.whatsapp.net", fromMe: false, id: "WA-SRCH-1" }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: "Júlia Ramos", message: { conversation: "Meu boleto venceu" } }],
    });
    const [t] = (await listTickets(admin(cid), { searchParam: "boleto" })).tickets;
    expect(t?.contact.name).toBe("Júlia Ramos");
    expect(await ids(admin(cid), "julia")).toEqual([t.id]);
    expect(await ids(admin(cid), "4445")).toEqual([t.id]);
    // The same message delivered again is stored once: one edit is enough to forget its words.
    const m = await say({ ...(t as unknown as TicketItem) }, "segunda via da fatura");
    await ingestMessage(cid, t as unknown as TicketItem, { ...m }, { lastMessage: "", incrementUnread: false, waAliasJid: "x@s.whatsapp.net" });
    expect(await ids(admin(cid), "fatura")).toEqual([t.id]);
    await updateMessage(cid, t.id, m.id, { body: "segunda via do carne", previousBody: m.body, isEdited: true });
    expect(await ids(admin(cid), "fatura")).toEqual([]);
    expect(await ids(admin(cid), "carne")).toEqual([t.id]);
    await updateMessage(cid, t.id, m.id, { isDeleted: true });
    expect(await ids(admin(cid), "carne")).toEqual([]);
    // Words another message of the ticket still holds stay found.
    expect(await ids(admin(cid), "segunda")).toEqual([]);
    expect(await ids(admin(cid), "boleto")).toEqual([t.id]);
  });

  it("writes a word once per open ticket, keeps it while a message holds it, and indexes it again after it left", async () => {
    const cid = 34;
    const wa = await makeWhatsapp(cid);
    let seq = 0;
    const inbound = (text: string) =>
      handleBaileysEvent({ companyId: cid, whatsappId: wa.id }, "messages.upsert", {
        type: "notify",
        messages: [{ key: { remoteJid: "5511944446666@s.whatsapp.net", fromMe: false, id: `WA-KNOWN-${++seq}` }, messageTimestamp: Math.floor(Date.now() / 1000), pushName: "Rita Souza", message: { conversation: text } }],
      });
    /** The word items the transactions of `fn` stored (a transaction cancelled and retried counts once). */
    const wordPuts = async (fn: () => Promise<unknown>) => {
      const puts: string[] = [];
      const name = `wordPuts${seq}`;
      ddb().middlewareStack.add(
        (next) => async (args) => {
          const out = await next(args);
          const items = (args.input as { TransactItems?: { Put?: { Item: Record<string, unknown> } }[] }).TransactItems ?? [];
          for (const it of items) if (it.Put?.Item._type === "searchWord") puts.push(String(it.Put.Item.PK).split("#SW#")[1]);
          return out;
        },
        { step: "initialize", name },
      );
      try {
        await fn();
      } finally {
        ddb().middlewareStack.remove(name);
      }
      return puts.sort();
    };
    await inbound("quero o reembolso");
    // The first message on the open ticket read fresh writes its words; the next ones only the words it lacks.
    expect(await wordPuts(() => inbound("reembolso urgente"))).toEqual(["reembolso", "urgente"]);
    expect(await wordPuts(() => inbound("reembolso por favor"))).toEqual(["favor"]);
    expect(await wordPuts(() => inbound("urgente reembolso"))).toEqual([]);
    const [t] = (await listTickets(admin(cid), { searchParam: "urgente" })).tickets;
    expect(await ids(admin(cid), "reembolso")).toEqual([t.id]);

    // Deleting messages removes a word only when no other message of the ticket holds it.
    const { messages } = await listMessages(cid, t.id, { limit: 50 });
    const byBody = (b: string) => messages.find((m) => m.body === b)!;
    await updateMessage(cid, t.id, byBody("reembolso urgente").id, { isDeleted: true });
    expect(await ids(admin(cid), "urgente")).toEqual([t.id]);
    await updateMessage(cid, t.id, byBody("urgente reembolso").id, { isDeleted: true });
    expect(await ids(admin(cid), "urgente")).toEqual([]);
    expect(await ids(admin(cid), "reembolso")).toEqual([t.id]);

    // The runner's copy knew "urgente": the removal moved the ticket's revision, so the next message writes it again.
    expect(await wordPuts(() => inbound("ainda urgente"))).toEqual(["ainda", "urgente"]);
    expect(await ids(admin(cid), "urgente")).toEqual([t.id]);
  });

  it("shows an agent only the tickets of their queues", async () => {
    const cid = 24;
    const wa = await makeWhatsapp(cid);
    const [q1, q2] = [await makeQueue(cid), await makeQueue(cid)];
    const mine = await makeTicket(cid, { whatsappId: wa.id, queueId: q1.id, contact: await makeContact(cid, "Paula Lima", "5511966660001") });
    const theirs = await makeTicket(cid, { whatsappId: wa.id, queueId: q2.id, contact: await makeContact(cid, "Otávio Lima", "5511966660002") });
    await say(mine, "reembolso");
    await say(theirs, "reembolso");
    expect(await ids(agent(cid, 70, [q1.id]), "lima")).toEqual([mine.id]);
    expect(await ids(agent(cid, 70, [q1.id]), "reembolso")).toEqual([mine.id]);
    expect(await ids(agent(cid, 70, [q1.id]), "otavio")).toEqual([]);
    expect(await ids(admin(cid), "reembolso")).toEqual([mine.id, theirs.id]);
  });

  it("never finds another company's tickets and rejects its cursors", async () => {
    const wa = await makeWhatsapp(25);
    const t = await makeTicket(25, { whatsappId: wa.id, contact: await makeContact(25, "Heitor Nunes", "5511977770001") });
    await say(t, "reembolso urgente");
    await makeWhatsapp(26);
    expect(await ids(admin(26), "reembolso")).toEqual([]);
    expect(await ids(admin(26), "heitor")).toEqual([]);
    expect(await ids(admin(26), "7777")).toEqual([]);
    expect((await listContacts(26, { searchParam: "heitor" })).contacts).toEqual([]);
    for (let i = 0; i < 2; i++) await say(await makeTicket(25, { whatsappId: wa.id, contact: await makeContact(25, `Nunes ${i}`, `551197777100${i}`) }), "reembolso");
    const p = await listTickets(admin(25), { searchParam: "reembolso", limit: 1 });
    expect(p.nextCursor).toBeDefined();
    await expect(listTickets(admin(26), { searchParam: "reembolso", cursor: p.nextCursor })).rejects.toMatchObject({ code: "ERR_INVALID_CURSOR", status: 400 });
    const byName = await listTickets(admin(25), { searchParam: "nunes", limit: 1 });
    await expect(listTickets(admin(26), { searchParam: "nunes", cursor: byName.nextCursor })).rejects.toMatchObject({ code: "ERR_INVALID_CURSOR" });
  });

  it("pages 40 tickets at a time, each once, contact matches first then message matches, newest first", async () => {
    const cid = 27;
    const wa = await makeWhatsapp(cid);
    const byName: number[] = [];
    const byWord: number[] = [];
    for (let i = 0; i < 30; i++) byName.push((await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, `Vitória Garantia ${String(i).padStart(2, "0")}`, `55119300000${String(i).padStart(2, "0")}`) })).id);
    for (let i = 0; i < 25; i++) {
      const t = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, `Cliente ${i}`, `55119400000${String(i).padStart(2, "0")}`) });
      await say(t, "sobre a garantia do produto");
      await say(t, "a garantia cobre?", true);
      byWord.push(t.id);
    }
    const p1 = await listTickets(admin(cid), { searchParam: "garantia" });
    expect(p1.tickets).toHaveLength(40);
    expect(p1.hasMore).toBe(true);
    expect(p1.tickets.slice(0, 30).map((t) => t.id)).toEqual([...byName].reverse()); // contact matches, newest ticket first
    expect(p1.tickets.slice(30).map((t) => t.id)).toEqual([...byWord].reverse().slice(0, 10)); // newest ticket first
    const p2 = await listTickets(admin(cid), { searchParam: "garantia", cursor: p1.nextCursor });
    expect(p2.tickets.map((t) => t.id)).toEqual([...byWord].reverse().slice(10));
    const all = [...p1.tickets, ...p2.tickets].map((t) => t.id);
    expect(new Set(all).size).toBe(55);
    const byPage = await listTickets(admin(cid), { searchParam: "garantia", pageNumber: 2 });
    expect(byPage.tickets.map((t) => t.id)).toEqual(p2.tickets.map((t) => t.id));
  }, 180_000);

  it("finds tickets by a surname shared by many contacts in two requests, however many contacts match", async () => {
    const cid = 29;
    const wa = await makeWhatsapp(cid);
    const made: number[] = [];
    for (let i = 0; i < 12; i++) made.push((await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, `Cliente${i} Sobrenomeúnico`, `55119500000${String(i).padStart(2, "0")}`) })).id);
    const commands: string[] = [];
    const name = "count-search";
    ddb().middlewareStack.add((next, ctx) => async (args) => {
      commands.push(String(ctx.commandName));
      return next(args);
    }, { step: "initialize", name });
    try {
      expect(await ids(admin(cid), "sobrenomeunico")).toEqual(made);
      expect(await ids(admin(cid), "Sobrenome")).toEqual(made);
    } finally {
      ddb().middlewareStack.remove(name);
    }
    // Per search: one Query of the ticket grams and one BatchGet of the tickets (no Query per matching contact); the
    // message-word side reads its own partition once (no message holds the word).
    expect(commands.filter((c) => c === "QueryCommand").length).toBeLessThanOrEqual(2 * 2);
    expect(commands.filter((c) => c === "BatchGetCommand").length).toBeLessThanOrEqual(2);
  });

  it("reads only the tickets a two-word search shows: the other word is checked on the index, not on each candidate", async () => {
    const cid = 35;
    const wa = await makeWhatsapp(cid);
    const both: number[] = [];
    for (let i = 0; i < 12; i++) {
      const t = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, `Cliente ${i}`, `55119600000${String(i).padStart(2, "0")}`) });
      await say(t, i % 2 ? "a segunda via do boleto" : "segunda via");
      if (i % 2) both.push(t.id);
      else await say(t, "e o boleto?", true);
      if (!(i % 2)) both.push(t.id);
    }
    const onlyOne: number[] = [];
    for (let i = 0; i < 12; i++) {
      const t = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, `Outro ${i}`, `55119610000${String(i).padStart(2, "0")}`) });
      await say(t, "a segunda via da nota");
      onlyOne.push(t.id);
    }
    // The other word matching the contact instead of a message.
    const named = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Boleto Alves", "5511962000001") });
    await say(named, "segunda feira");
    // A first search re-packs the rows the messages left stale (`tickets/row.ts`); the next one is counted.
    expect(await ids(admin(cid), "segunda boleto")).toEqual([...both, named.id]);
    await settleDeferred();
    let keysRead = 0;
    const name = "count-keys";
    ddb().middlewareStack.add(
      (next, ctx) => async (args) => {
        if (String(ctx.commandName).startsWith("BatchGet")) for (const r of Object.values((args.input as { RequestItems: Record<string, { Keys: unknown[] }> }).RequestItems)) keysRead += r.Keys.length;
        return next(args);
      },
      { step: "initialize", name },
    );
    try {
      expect(await ids(admin(cid), "segunda boleto")).toEqual([...both, named.id]);
    } finally {
      ddb().middlewareStack.remove(name);
    }
    // One key per ticket shown: none for the 12 tickets holding only "segunda", none for the other word's items.
    expect(keysRead).toBe(13);
    // Every ticket holding "boleto" holds "via" too: the contacts matching "via" are not read at all.
    const partitions: string[] = [];
    const queries = "count-queries";
    ddb().middlewareStack.add(
      (next, ctx) => async (args) => {
        if (ctx.commandName === "QueryCommand") partitions.push(String((args.input as { ExpressionAttributeValues: Record<string, unknown> }).ExpressionAttributeValues[":pk"]));
        return next(args);
      },
      { step: "initialize", name: queries },
    );
    try {
      expect(await ids(admin(cid), "boleto via")).toEqual(both);
    } finally {
      ddb().middlewareStack.remove(queries);
    }
    expect(partitions.map((pk) => pk.replace(/^C#\d+#/, ""))).toEqual(["STG#boleto", "SW#boleto", "SW#via"]);
    expect(await ids(admin(cid), "segunda nota")).toEqual(onlyOne);
    expect(await ids(admin(cid), "segunda xyzw")).toEqual([]);
  }, 180_000);

  it("no longer finds a renamed contact's tickets by the old name", async () => {
    const cid = 28;
    const wa = await makeWhatsapp(cid);
    const t = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Fernanda Prado", "5511988880001") });
    expect(await ids(admin(cid), "prado")).toEqual([t.id]);
    await updateContact(cid, t.contactId, { name: "Fernanda Queiroz", number: "5521933330001" });
    expect(await ids(admin(cid), "prado")).toEqual([]);
    expect(await ids(admin(cid), "queiroz")).toEqual([t.id]);
    expect(await ids(admin(cid), "fernanda")).toEqual([t.id]);
    expect(await ids(admin(cid), "8888")).toEqual([]);
    expect(await ids(admin(cid), "3333")).toEqual([t.id]);
  });
});

describe("an admin's ticket delete", () => {
  /** The ticket's search items still stored: its message words and its contact's grams. */
  const leftovers = async (t: TicketItem, words: string[], grams: string[]) => {
    const keysOf = [...words.map((w) => keys.searchWord(t.companyId, w, t.id)), ...grams.map((g) => keys.searchTicketGram(t.companyId, g, t.id))];
    const found = await Promise.all(keysOf.map(async (Key) => (await ddb().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }))).Item));
    return found.filter(Boolean).map((it) => `${it!.PK}|${it!.SK}`);
  };

  it("removes the ticket's search words and grams: a search after the delete finds nothing of it", async () => {
    const cid = 41;
    const wa = await makeWhatsapp(cid);
    const contact = await makeContact(cid, "Valdomiro Quintela", "5511944441111");
    const t = await makeTicket(cid, { whatsappId: wa.id, contact });
    const kept = await makeTicket(cid, { whatsappId: wa.id, contact: await makeContact(cid, "Outra Pessoa", "5511944442222") });
    await say(t, "Minha encomenda xilofone chegou quebrada");
    await say(t, "Vamos trocar o xilofone", true);
    await say(kept, "Também quero um xilofone");
    const words = messageWords("Minha encomenda xilofone chegou quebrada trocar");
    const grams = contactGrams(contact);
    expect(await leftovers(t, words, grams)).not.toEqual([]);
    expect(await ids(admin(cid), "xilofone")).toEqual([t.id, kept.id].sort((a, b) => a - b));

    await deleteTicketByAdmin(admin(cid), t.id);
    expect(await leftovers(t, words, grams)).toEqual([]);
    expect(await ids(admin(cid), "xilofone")).toEqual([kept.id]);
    expect(await ids(admin(cid), "encomenda quebrada")).toEqual([]);
    expect(await ids(admin(cid), "Quintela")).toEqual([]);
    expect(await ids(admin(cid), "44441")).toEqual([]);
    expect(await getTimer(cid, TICKET_REMAINS, t.id)).toBeNull();
  }, 90_000);

  it("finishes the removal through its timer when the deleting process could not", async () => {
    const cid = 42;
    const wa = await makeWhatsapp(cid);
    const contact = await makeContact(cid, "Jurema Bittencourt", "5511955551111");
    const t = await makeTicket(cid, { whatsappId: wa.id, contact });
    await say(t, "Preciso do orçamento do telhado");
    const words = messageWords("Preciso orçamento telhado");
    const grams = contactGrams(contact);
    // Every cleanup write after the deletion's transaction fails (a dying process leaves the same state).
    const faults = injectDdbFaults((c) => (c.command === "BatchWriteItemCommand" ? "5xx" : null));
    try {
      await deleteTicketByAdmin(admin(cid), t.id);
    } finally {
      faults.remove();
    }
    expect(faults.failed).toBeGreaterThan(0);
    expect(await leftovers(t, words, grams)).not.toEqual([]);
    const timer = await getTimer(cid, TICKET_REMAINS, t.id);
    expect(timer).not.toBeNull();
    await runDueTimers(new Date(Date.parse(timer!.dueAt) + 1000));
    expect(await leftovers(t, words, grams)).toEqual([]);
    expect(await listMessages(cid, t.id)).toMatchObject({ messages: [] });
    expect(await ids(admin(cid), "telhado")).toEqual([]);
    expect(await getTimer(cid, TICKET_REMAINS, t.id)).toBeNull();
  }, 90_000);
});

describe("contact search", () => {
  it("finds contacts by a surname, a fragment of the number and a word of the email, accents and case ignored", async () => {
    const cid = 30;
    await createContact(cid, { name: "João Lima", number: "5511997771234", email: "joao@exemplo.com.br", disableBot: false, extraInfo: [] });
    await createContact(cid, { name: "Ana Beatriz", number: "5521988880000", email: "ana@outro.com", disableBot: false, extraInfo: [] });
    await createContact(cid, { name: "Limeira Verde", number: "5531911110000", email: "", disableBot: false, extraInfo: [] });
    expect(await names(cid, "Lima")).toEqual(["João Lima"]);
    expect(await names(cid, "lim")).toEqual(["João Lima", "Limeira Verde"]);
    expect(await names(cid, "9777")).toEqual(["João Lima"]);
    expect(await names(cid, "exemplo")).toEqual(["João Lima"]);
    expect(await names(cid, "JOAO")).toEqual(["João Lima"]);
    expect(await names(cid, "beatriz ana")).toEqual(["Ana Beatriz"]);
    expect(await names(cid, "97778")).toEqual([]);
    expect(await names(cid, "5511997771234")).toEqual(["João Lima"]);
    expect(await names(cid, "+55 21 98888-0000")).toEqual(["Ana Beatriz"]);
  });

  it("forgets a deleted contact and the old words of an edited one", async () => {
    const cid = 31;
    const c = await createContact(cid, { name: "Gustavo Ribeiro", number: "5511955551111", email: "gustavo@antigo.com", disableBot: false, extraInfo: [] });
    await updateContact(cid, c.id, { name: "Gustavo Teixeira", email: "gustavo@novo.com" });
    expect(await names(cid, "ribeiro")).toEqual([]);
    expect(await names(cid, "antigo")).toEqual([]);
    expect(await names(cid, "teixeira")).toEqual(["Gustavo Teixeira"]);
    expect(await names(cid, "novo")).toEqual(["Gustavo Teixeira"]);
    await deleteContact(cid, c.id);
    expect(await names(cid, "gustavo")).toEqual([]);
    const gram = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.searchGram(cid, "gust", "gustavo teixeira", c.id) }));
    expect(gram.Item).toBeUndefined();
  });

  it("pages contact search results with cursors, alphabetically, without repeats", async () => {
    const cid = 32;
    for (let i = 0; i < 7; i++) await createContact(cid, { name: `Rocha ${String.fromCharCode(71 - i)}`, number: `55119600000${i}0`, email: "", disableBot: false, extraInfo: [] });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 10; n++) {
      const p = await listContacts(cid, { searchParam: "rocha", cursor, limit: 3 });
      seen.push(...p.contacts.map((c) => c.name));
      cursor = p.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(["A", "B", "C", "D", "E", "F", "G"].map((x) => `Rocha ${x}`));
    await expect(listContacts(33, { searchParam: "rocha", cursor: (await listContacts(cid, { searchParam: "rocha", limit: 3 })).nextCursor })).rejects.toMatchObject({ code: "ERR_INVALID_CURSOR" });
  });
});
