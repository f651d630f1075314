/**
 * The sandbox phone's thread: the chat with one number as the customer's phone shows it after a
 * reload — the customer's own messages and reactions too, edits and deletes applied, other chats left out.
 */
import type { WAMessage } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { threadOf, type CarriedMessage } from "./sim-thread.ts";

const ANA = "5511900000001@s.whatsapp.net";
const BIA = "5511900000002@s.whatsapp.net";
let clock = Date.parse("2026-11-24T12:00:00Z");
const carried = (remoteJid: string, fromMe: boolean, id: string, message: WAMessage["message"]): CarriedMessage => {
  clock += 1000;
  return { msg: { key: { remoteJid, fromMe, id }, message } as WAMessage, at: new Date(clock).toISOString() };
};

describe("sandbox thread", () => {
  it("shows both sides in order with the customer's reaction, an edit and a delete applied", () => {
    const log = [
      carried(ANA, false, "C1", { conversation: "oi, quero um orçamento" }),
      carried(BIA, false, "B1", { conversation: "outra conversa" }),
      carried(ANA, true, "A1", { extendedTextMessage: { text: "Olá! Claro." } }),
      carried(ANA, false, "C2", { reactionMessage: { key: { remoteJid: ANA, fromMe: true, id: "A1" }, text: "👍" } }),
      carried(ANA, false, "C3", { imageMessage: { caption: "a foto" } }),
      carried(ANA, false, "C4", { contactMessage: { displayName: "Maria Souza" } }),
      carried(ANA, false, "C5", { protocolMessage: { type: 14, key: { remoteJid: ANA, fromMe: false, id: "C1" }, editedMessage: { conversation: "oi, quero dois orçamentos" } } }),
      carried(ANA, false, "C6", { protocolMessage: { type: 0, key: { remoteJid: ANA, fromMe: false, id: "C3" } } }),
      carried(ANA, true, "A2", { reactionMessage: { key: { remoteJid: ANA, fromMe: false, id: "C4" }, text: "❤️" } }),
      carried(ANA, true, "A3", { reactionMessage: { key: { remoteJid: ANA, fromMe: false, id: "C4" }, text: "" } }),
    ];
    const thread = threadOf(log, "5511900000001");
    expect(thread.map((m) => [m.id, m.mine, m.kind, m.text, m.edited, m.deleted, m.reactions])).toEqual([
      ["C1", true, "text", "oi, quero dois orçamentos", true, false, []],
      ["A1", false, "text", "Olá! Claro.", false, false, [{ mine: true, emoji: "👍" }]],
      ["C3", true, "image", "a foto", false, true, []],
      ["C4", true, "vcard", "Maria Souza", false, false, []],
    ]);
    expect(threadOf(log, "5511900000002").map((m) => m.text)).toEqual(["outra conversa"]);
    expect(threadOf(log, "5511900000003")).toEqual([]);
  });

  it("shows a reply with its quote: the quoted bubble as it stands now, or the quote the reply carried", () => {
    const log = [
      carried(ANA, false, "C1", { conversation: "qual o prazo?" }),
      carried(ANA, false, "C2", { protocolMessage: { type: 14, key: { remoteJid: ANA, fromMe: false, id: "C1" }, editedMessage: { conversation: "qual o prazo de entrega?" } } }),
      carried(ANA, true, "A1", { extendedTextMessage: { text: "Cinco dias.", contextInfo: { stanzaId: "C1", participant: ANA, quotedMessage: { conversation: "qual o prazo?" } } } }),
      carried(ANA, false, "C3", { imageMessage: { caption: "esta?", contextInfo: { stanzaId: "A1", participant: "5511999990000@s.whatsapp.net", quotedMessage: { conversation: "Cinco dias." } } } }),
      carried(ANA, true, "A2", { extendedTextMessage: { text: "Sobre aquilo", contextInfo: { stanzaId: "OLD", participant: ANA, quotedMessage: { imageMessage: { caption: "foto antiga" } } } } }),
    ];
    const thread = threadOf(log, "5511900000001");
    expect(thread.map((m) => [m.id, m.quoted ?? null])).toEqual([
      ["C1", null],
      ["A1", { id: "C1", mine: true, kind: "text", text: "qual o prazo de entrega?", deleted: false }],
      ["C3", { id: "A1", mine: false, kind: "text", text: "Cinco dias.", deleted: false }],
      ["A2", { id: "OLD", mine: true, kind: "image", text: "foto antiga", deleted: false }],
    ]);
  });
});
