import { describe, expect, it } from "vitest";
import { normalizeUserJid, phoneDigits, resolveKey } from "./identity.ts";
import { WAMessageKey } from "./schema.ts";

const key = (k: Record<string, unknown>) => WAMessageKey.parse(k);

describe("resolveKey", () => {
  it("gives a phone-number chat its JID and digits", () => {
    const r = resolveKey(key({ remoteJid: "556590000001@s.whatsapp.net", id: "A", fromMe: false }));
    expect(r).toMatchObject({ ok: true, identity: { chatJid: "556590000001@s.whatsapp.net", isGroup: false, contact: { jids: ["556590000001@s.whatsapp.net"], number: "556590000001" } } });
  });

  it("joins a LID chat to its phone number through remoteJidAlt (Baileys 7), also for own messages", () => {
    const r = resolveKey(key({ remoteJid: "100000000000006@lid", remoteJidAlt: "554499999999@s.whatsapp.net", addressingMode: "lid", fromMe: true, participant: "", id: "A" }));
    expect(r.ok && r.identity.contact).toEqual({ jids: ["554499999999@s.whatsapp.net", "100000000000006@lid"], number: "554499999999" });
    expect(r.ok && r.identity.altChatJids).toEqual(["554499999999@s.whatsapp.net"]);
  });

  it("joins a LID chat to its phone number through senderPn (Baileys 6.7.x) for inbound messages only", () => {
    const inbound = resolveKey(key({ remoteJid: "100000000000005@lid", senderPn: "919000000001@s.whatsapp.net", fromMe: false, id: "A" }));
    expect(inbound.ok && inbound.identity.contact.number).toBe("919000000001");
    const own = resolveKey(key({ remoteJid: "100000000000005@lid", senderPn: "919000000099@s.whatsapp.net", fromMe: true, id: "A" }));
    expect(own.ok && own.identity.contact).toEqual({ jids: ["100000000000005@lid"], number: undefined });
  });

  it("makes the group the contact and names the sender, phone number first", () => {
    const r = resolveKey(key({ remoteJid: "120363332108137298@g.us", participant: "100000000000003@lid", participantAlt: "5511900000003@s.whatsapp.net", id: "A" }));
    expect(r).toMatchObject({
      ok: true,
      identity: {
        isGroup: true,
        chatJid: "120363332108137298@g.us",
        contact: { jids: ["120363332108137298@g.us"], number: "120363332108137298" },
        participant: "5511900000003@s.whatsapp.net",
        participantIdentity: { jids: ["5511900000003@s.whatsapp.net", "100000000000003@lid"], number: "5511900000003" },
      },
    });
  });

  it("uses the top-level participant of old captures", () => {
    const r = resolveKey(key({ remoteJid: "120363021046907422@g.us", id: "A" }), "556590000001@s.whatsapp.net");
    expect(r.ok && r.identity.participant).toBe("556590000001@s.whatsapp.net");
  });

  it("refuses status, broadcast, newsletter and blank JIDs", () => {
    expect(resolveKey(key({ remoteJid: "status@broadcast", id: "A" }))).toEqual({ ok: false, reason: "status@broadcast ignored" });
    expect(resolveKey(key({ remoteJid: "123@broadcast", id: "A" })).ok).toBe(false);
    expect(resolveKey(key({ remoteJid: "123@newsletter", id: "A" })).ok).toBe(false);
    expect(resolveKey(key({ remoteJid: "@s.whatsapp.net", id: "A" })).ok).toBe(false);
    expect(resolveKey(key({ id: "A" })).ok).toBe(false);
  });
});

describe("JID helpers", () => {
  it("drops the device part and refuses non-user servers", () => {
    expect(normalizeUserJid("5511999999999:12@s.whatsapp.net")).toBe("5511999999999@s.whatsapp.net");
    expect(normalizeUserJid("5511999999999@c.us")).toBe("5511999999999@s.whatsapp.net");
    expect(normalizeUserJid("1203@g.us")).toBeUndefined();
    expect(phoneDigits("100000000000001@lid")).toBeUndefined();
    expect(phoneDigits("5511999999999@s.whatsapp.net")).toBe("5511999999999");
  });
});
