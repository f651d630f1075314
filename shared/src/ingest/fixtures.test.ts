/**
 * Every Baileys payload under `../shared/fixtures/wa/` goes through the ingest service and the test
 * asserts what an agent would see (ticket list row, message bubble, contact) — or, for payloads that carry no
 * user-visible message, that nothing at all was stored and nothing was published. A guard test fails when a fixture
 * exists without an expectation here.
 */
import { describe, expect, it } from "vitest";
import { getMedia } from "../storage/media.ts";
import { registerSocket, type CapturedFrame } from "../users/realtime-capture.testkit.ts";
import { handleBaileysEvent, type IngestContext } from "./index.ts";
import { eventArg, freshCompanyId, listFixtures, loadFixture, setSetting, storedState, type StoredState, useIngestStack } from "./testkit.ts";

const capture = useIngestStack();

/** Bytes the fake downloader hands out for a message (so the S3 object can be checked). */
const bytesFor = (msg: any) => Buffer.from(`media-of-${msg?.key?.id ?? "?"}`);

interface Scenario {
  cid: number;
  ctx: IngestContext;
  /** Feeds a fixture (by relative path) as Baileys would emit it. */
  feed: (rel: string, opts?: { key?: Record<string, unknown> }) => Promise<{ handled: boolean; skipped: { reason: string }[] }>;
  state: () => Promise<StoredState>;
  /** Realtime frames this company's sockets received, as `{event suffix, action}`. */
  events: () => { name: string; action?: string; data: any }[];
}

async function scenario(opts: { download?: "ok" | "fail"; groups?: boolean } = {}): Promise<Scenario> {
  const cid = freshCompanyId();
  await registerSocket(cid, { id: 1, profile: "admin" });
  if (opts.groups) await setSetting(cid, "CheckMsgIsGroup", "disabled");
  const ctx: IngestContext = {
    companyId: cid,
    whatsappId: 7,
    downloadMedia: async (msg: any) => (opts.download === "fail" ? null : { bytes: bytesFor(msg), mimetype: msg?.message ? mimeOf(msg.message) : "application/octet-stream" }),
  };
  const prefix = `company-${cid}-`;
  return {
    cid,
    ctx,
    feed: (rel, o) => {
      const f = loadFixture(rel);
      return handleBaileysEvent(ctx, f.event, eventArg(f, o?.key));
    },
    state: () => storedState(cid),
    events: () =>
      capture.frames
        .filter((f: CapturedFrame) => f.event.startsWith(prefix))
        .map((f) => ({ name: f.event.slice(prefix.length), action: f.data?.action, data: f.data })),
  };
}

function mimeOf(message: Record<string, any>): string {
  for (const v of Object.values(message)) if (v && typeof v === "object" && typeof v.mimetype === "string") return v.mimetype;
  return "application/octet-stream";
}

/** Asserts nothing was stored for the company and nothing was published to it. */
async function expectNothingStored(s: Scenario) {
  const st = await s.state();
  expect(st.itemCount).toBe(0);
  expect(s.events()).toEqual([]);
}

/** The single message/ticket/contact after a one-message fixture (given by path: fed to a fresh scenario first). */
async function single(from: Scenario | string, opts?: Parameters<typeof scenario>[0]) {
  let s = from as Scenario;
  if (typeof from === "string") {
    s = await scenario(opts);
    await s.feed(from);
  }
  const st = await s.state();
  expect(st.messages).toHaveLength(1);
  expect(st.tickets).toHaveLength(1);
  expect(st.contacts).toHaveLength(1);
  return { message: st.messages[0], ticket: st.tickets[0], contact: st.contacts[0], s };
}

/** A fresh scenario with the LID text stored, then the fixture `rel` fed (a change to that stored message). */
async function afterTextLid(rel: string): Promise<Scenario> {
  const s = await scenario();
  await s.feed(TEXT_LID);
  await s.feed(rel);
  return s;
}

/** The realtime events of a newly stored message: one appMessage create carrying the message and its ticket's row. */
function expectCreatePublished(s: Scenario, messageId: string) {
  const ev = s.events();
  const created = ev.filter((e) => e.name === "appMessage" && e.action === "create");
  expect(created.map((e) => e.data.message.id)).toEqual([messageId]);
  expect(created[0].data.ticket).toMatchObject({ id: created[0].data.message.ticketId, lastMessage: expect.any(String) });
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const TEXT_LID = "text/extended-text-lid-disappearing-2026.json";

/** One expectation per fixture file (relative path → test body). */
const expectations: Record<string, () => Promise<void>> = {
  // ---- text ------------------------------------------------------------------------------------------------------
  "text/conversation-1to1-2021.json": async () => {
    const { message, ticket, contact, s } = await single("text/conversation-1to1-2021.json");
    expect(message).toMatchObject({ id: "50F2A87CC40A95126440A0416881EC70", body: "mensage  de texto", mediaType: "chat", fromMe: false, read: false, ack: 0, waTimestamp: iso(1637176806) });
    expect(contact).toMatchObject({ name: "Contact A", number: "556590000001", isGroup: false });
    expect(ticket).toMatchObject({ status: "pending", contactId: contact.id, whatsappId: 7, lastMessage: "mensage  de texto", unreadMessages: 1 });
    expectCreatePublished(s, message.id);
  },
  "text/conversation-evolution-2025.json": async () => {
    const { message, contact, ticket } = await single("text/conversation-evolution-2025.json");
    expect(message).toMatchObject({ body: "hola - text", mediaType: "chat", fromMe: false, waTimestamp: iso(1746132673) });
    expect(contact).toMatchObject({ name: "Contact A", number: "59170000001" });
    expect(ticket.unreadMessages).toBe(1);
  },
  [TEXT_LID]: async () => {
    const s = await scenario();
    await s.feed(TEXT_LID);
    const { message, contact } = await single(s);
    expect(message).toMatchObject({ id: "AC07DE0D18FA8254897A26C90B2FFD98", body: "Mensaje", mediaType: "chat", remoteJid: "100000000000001@lid" });
    // A LID carries no phone number: the contact is known by its LID until a later event reveals the number.
    expect(contact).toMatchObject({ name: "Contact A", number: "", jids: ["100000000000001@lid"] });
  },

  // ---- media ----------------------------------------------------------------------------------------------------
  "audio-ptt/ptt-1to1-2021.json": async () => {
    const { message, ticket, contact, s } = await single("audio-ptt/ptt-1to1-2021.json");
    expect(message).toMatchObject({ mediaType: "audio", body: "", mediaMime: "audio/ogg; codecs=opus", mediaError: false });
    expect(message.mediaKey).toMatch(new RegExp(`^media/${s.cid}/${ticket.id}/56E9F2666705EEE177B675DB38100108\\.(ogg|oga|opus)$`));
    expect((await getMedia(message.mediaKey!)).toString()).toBe("media-of-56E9F2666705EEE177B675DB38100108");
    expect(contact.name).toBe("Contact A");
    expect(ticket).toMatchObject({ lastMessage: "🎤", unreadMessages: 1 });
  },
  "audio-ptt/ptt-sent-mp4.json": async () => {
    const s = await scenario();
    const out = await s.feed("audio-ptt/ptt-sent-mp4.json");
    expect(out.handled).toBe(true);
    const { message, ticket, contact } = await single(s);
    // Sent from the phone: own message, status PENDING (1) shows as sent, no unread bump, contact named by its number.
    expect(message).toMatchObject({ id: "BAE5EFED2AB0BB9F", mediaType: "audio", fromMe: true, read: true, ack: 1, mediaMime: "audio/mp4", mediaError: false });
    expect(ticket.unreadMessages).toBe(0);
    expect(contact).toMatchObject({ name: "553190000001", number: "553190000001" });
  },
  "audio/audio-file-forwarded-ptt-false.json": async () => {
    const s = await scenario();
    await s.feed("audio/audio-file-forwarded-ptt-false.json", { key: { remoteJid: "5511900000010@s.whatsapp.net", fromMe: false, id: "AUDIOFWD0001" } });
    const { message } = await single(s);
    expect(message).toMatchObject({ id: "AUDIOFWD0001", mediaType: "audio", isForwarded: true, mediaSize: "media-of-AUDIOFWD0001".length, mediaError: false });
  },
  "image/image-1to1-2021.json": async () => {
    const { message, ticket, s } = await single("image/image-1to1-2021.json");
    expect(message).toMatchObject({ mediaType: "image", body: "", mediaMime: "image/jpeg", mediaError: false });
    expect(message.mediaKey).toBe(`media/${s.cid}/${ticket.id}/B136FC1142B4F90EF7F83DB8FD524D05.jpeg`);
    expect(ticket.lastMessage).toBe("📷");
  },
  "image/image-caption-lid-2026.json": async () => {
    const { message, ticket, contact } = await single("image/image-caption-lid-2026.json");
    expect(message).toMatchObject({ mediaType: "image", body: "Here is the caption.", mediaError: false });
    expect(ticket.lastMessage).toBe("Here is the caption.");
    expect(contact.jids).toEqual(["100000000000001@lid"]);
  },
  "image/image-caption-sent-empty-contextinfo.json": async () => {
    const { message } = await single("image/image-caption-sent-empty-contextinfo.json");
    expect(message).toMatchObject({ mediaType: "image", fromMe: true, ack: 1, body: "This is an example JPG image file sent by Evolution-API via URL.", quotedMsgId: null });
  },
  "video/gif-video-1to1-2021.json": async () => {
    const { message } = await single("video/gif-video-1to1-2021.json");
    expect(message).toMatchObject({ mediaType: "video", body: "", mediaMime: "video/mp4", mediaError: false });
  },
  "video/video-caption-evolution-base64.json": async () => {
    const { message } = await single("video/video-caption-evolution-base64.json");
    expect(message).toMatchObject({ mediaType: "video", body: "hola - text con multimea (video)", mediaError: false });
  },
  "document/document-epub-2022.json": async () => {
    const s = await scenario();
    await s.feed("document/document-epub-2022.json", { key: { remoteJid: "5511900000011@s.whatsapp.net", fromMe: false, id: "DOCEPUB0001" } });
    const { message, ticket } = await single(s);
    expect(message).toMatchObject({ mediaType: "application", body: "2_5192796446490889031.epub", mediaName: "2_5192796446490889031.epub", mediaMime: "application/epub+zip" });
    expect(message.mediaKey).toBe(`media/${s.cid}/${ticket.id}/DOCEPUB0001.epub`);
  },
  "sticker/sticker-animated-from-wa-web-2022.json": async () => {
    // The sticker's url ("https://whatsapp.net") cannot be downloaded: the message is kept, marked.
    const { message, s } = await single("sticker/sticker-animated-from-wa-web-2022.json", { download: "fail" });
    expect(message).toMatchObject({ id: "*******************", mediaType: "sticker", mediaError: true, mediaKey: null, mediaMime: "image/webp" });
    expectCreatePublished(s, message.id);
  },

  // ---- location / contact / poll -------------------------------------------------------------------------------
  "location/location-1to1-2021.json": async () => {
    const { message, ticket } = await single("location/location-1to1-2021.json");
    const parts = message.body.split("|");
    expect(message.mediaType).toBe("locationMessage");
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    expect(parts[1]).toBe("https://maps.google.com/maps?q=-15.6248531%2C-56.0980328&z=17");
    expect(ticket.lastMessage).toBe("📍 https://maps.google.com/maps?q=-15.6248531%2C-56.0980328&z=17");
  },
  "location/location-named-sent.json": async () => {
    const { message } = await single("location/location-named-sent.json");
    expect(message).toMatchObject({
      mediaType: "locationMessage",
      fromMe: true,
      body: "|https://maps.google.com/maps?q=-19.93359%2C-43.93851&z=17|Palácio da Liberdade\nPraça da Liberdade, Belo Horizonte, MG 30140-050",
    });
  },
  "live-location/live-location-caption-lid.json": async () => {
    const { message } = await single("live-location/live-location-caption-lid.json");
    expect(message).toMatchObject({ mediaType: "locationMessage", body: "|https://maps.google.com/maps?q=8.2570838%2C-62.7974644&z=17|Caption here" });
  },
  "contact/contact-vcard-business-2021.json": async () => {
    const { message, ticket } = await single("contact/contact-vcard-business-2021.json");
    expect(message.mediaType).toBe("contactMessage");
    expect(message.body).toMatch(/^BEGIN:VCARD\n/);
    expect(message.body).toContain("item1.TEL;waid=556140040001:+55 61 4004-0001");
    expect(ticket.lastMessage).toBe("👤 +55 (61) 4004-0001");
  },
  "poll/poll-creation-v1-sent.json": async () => {
    const { message } = await single("poll/poll-creation-v1-sent.json");
    expect(message).toMatchObject({ mediaType: "chat", fromMe: true, body: "📊 Poll Name\n• Option 1\n• Option 2\n• Option 3" });
  },
  "poll/poll-creation-v3-lid.json": async () => {
    const { message } = await single("poll/poll-creation-v3-lid.json");
    expect(message).toMatchObject({ mediaType: "chat", fromMe: false, body: "📊 Poll\n• Option A\n• Option B" });
  },

  // ---- quotes ---------------------------------------------------------------------------------------------------
  "quoted-reply/reply-to-text-1to1-2021.json": async () => {
    const s = await scenario();
    await s.feed("text/conversation-1to1-2021.json");
    await s.feed("quoted-reply/reply-to-text-1to1-2021.json");
    const st = await s.state();
    expect(st.tickets).toHaveLength(1);
    expect(st.messages.map((m) => m.body)).toEqual(["mensage  de texto", "resposta"]);
    expect(st.messages[1]).toMatchObject({
      quotedMsgId: "50F2A87CC40A95126440A0416881EC70",
      quotedMsg: { id: "50F2A87CC40A95126440A0416881EC70", body: "mensage  de texto", fromMe: false, mediaType: "chat" },
    });
    expect(st.tickets[0]).toMatchObject({ unreadMessages: 2, lastMessage: "resposta" });
  },
  "quoted-reply/reply-sent-quoting-conversation.json": async () => {
    const { message } = await single("quoted-reply/reply-sent-quoting-conversation.json");
    expect(message).toMatchObject({ fromMe: true, mediaType: "chat", quotedMsgId: "BAE5766236A2AEFF" });
    expect(message.body).toMatch(/^Reply quote text message/);
    // The quoted message was never stored here: the bubble shows the copy WhatsApp sent along.
    expect(message.quotedMsg?.body).toMatch(/^Plain text message, sent with the _Evolution-API_/);
    expect(message.quotedMsg).toMatchObject({ id: "BAE5766236A2AEFF", fromMe: false, mediaType: "chat" });
  },
  "document-with-caption/reply-quoting-document-with-caption.json": async () => {
    const { message, ticket } = await single("document-with-caption/reply-quoting-document-with-caption.json");
    expect(message).toMatchObject({ body: "é assim que começa", fromMe: true, mediaType: "chat", quotedMsgId: "2F0C1BF027EBAFBAB650D16D3C685EE1" });
    expect(message.quotedMsg).toMatchObject({ body: "Project archive zip.zip", mediaType: "application" });
    expect(ticket.unreadMessages).toBe(0);
  },

  // ---- groups ---------------------------------------------------------------------------------------------------
  "group/conversation-group-2021.json": async () => {
    const ignored = await scenario();
    const out = await ignored.feed("group/conversation-group-2021.json");
    expect(out.skipped).toEqual([{ reason: "group messages ignored (CheckMsgIsGroup)" }]);
    await expectNothingStored(ignored);

    const { message, ticket, contact } = await single("group/conversation-group-2021.json", { groups: true });
    expect(contact).toMatchObject({ isGroup: true, number: "120363021046907422", jids: ["120363021046907422@g.us"] });
    expect(ticket.isGroup).toBe(true);
    expect(message).toMatchObject({ body: "no grupo, mensagem de texto", participant: "556590000001@s.whatsapp.net", senderName: "Contact A", remoteJid: "120363021046907422@g.us" });
  },
  "group/forwarded-text-group-2021.json": async () => {
    const { message } = await single("group/forwarded-text-group-2021.json", { groups: true });
    expect(message).toMatchObject({ body: "ok", isForwarded: true, senderName: "Contact A" });
  },
  "ephemeral/group-lid-disappearing-evolution.json": async () => {
    const ignored = await scenario();
    await ignored.feed("ephemeral/group-lid-disappearing-evolution.json");
    await expectNothingStored(ignored);

    const { message, contact } = await single("ephemeral/group-lid-disappearing-evolution.json", { groups: true });
    expect(contact).toMatchObject({ isGroup: true, number: "120363332108137298" });
    expect(message).toMatchObject({ body: "Perfumes de 35 ML de mujer y hombre a 1 a 16 Bs y 2 en 30 bs", participant: "100000000000003@lid", senderName: "Contact B" });
  },

  // ---- changes to stored messages -------------------------------------------------------------------------------
  "edit/protocol-message-edit-upsert-lid.json": async () => {
    const alone = await scenario();
    expect((await alone.feed("edit/protocol-message-edit-upsert-lid.json")).skipped).toEqual([{ reason: "edit of an unknown message" }]);
    await expectNothingStored(alone);

    const s = await afterTextLid("edit/protocol-message-edit-upsert-lid.json");
    const { message, ticket } = await single(s);
    expect(message).toMatchObject({ id: "AC07DE0D18FA8254897A26C90B2FFD98", body: "Editado.", isEdited: true, previousBody: "Mensaje" });
    expect(ticket.unreadMessages).toBe(1);
    expect(s.events().filter((e) => e.name === "appMessage").map((e) => e.action)).toEqual(["create", "update"]);
  },
  "edit/messages-update-edited-message-lid.json": async () => {
    const s = await afterTextLid("edit/messages-update-edited-message-lid.json");
    // Baileys reports the same edit twice (upsert + update): the second changes nothing.
    const again = await s.feed("edit/protocol-message-edit-upsert-lid.json");
    expect(again.skipped).toEqual([{ reason: "edit already applied" }]);
    const { message } = await single(s);
    expect(message).toMatchObject({ body: "Editado.", isEdited: true, previousBody: "Mensaje" });
    expect(s.events().filter((e) => e.name === "appMessage" && e.action === "update")).toHaveLength(1);
  },
  "revoke/protocol-message-revoke-upsert-lid.json": async () => {
    const alone = await scenario();
    await alone.feed("revoke/protocol-message-revoke-upsert-lid.json");
    await expectNothingStored(alone);

    const s = await afterTextLid("revoke/protocol-message-revoke-upsert-lid.json");
    const { message } = await single(s);
    expect(message).toMatchObject({ id: "AC07DE0D18FA8254897A26C90B2FFD98", isDeleted: true });
  },
  "revoke/messages-update-revoke-stub-lid.json": async () => {
    const s = await afterTextLid("revoke/messages-update-revoke-stub-lid.json");
    const { message } = await single(s);
    expect(message).toMatchObject({ isDeleted: true, body: "Mensaje" });
    const update = s.events().find((e) => e.name === "appMessage" && e.action === "update");
    expect(update?.data.message).toMatchObject({ id: "AC07DE0D18FA8254897A26C90B2FFD98", isDeleted: true });
  },
  "reaction/reaction-message-upsert-lid.json": async () => {
    const s = await afterTextLid("reaction/reaction-message-upsert-lid.json");
    const { message } = await single(s); // the reaction is not a message of its own
    expect(message.reactions).toEqual([{ emoji: "❤️", fromMe: false, senderJid: "100000000000001@lid", at: new Date(1767366770998).toISOString() }]);
  },
  "reaction/messages-reaction-event-long-timestamp.json": async () => {
    const s = await afterTextLid("reaction/messages-reaction-event-long-timestamp.json");
    // The upsert form of the same reaction arrives too: still one reaction from this person.
    await s.feed("reaction/reaction-message-upsert-lid.json");
    const { message } = await single(s);
    expect(message.reactions).toEqual([{ emoji: "❤️", fromMe: false, senderJid: "100000000000001@lid", at: new Date(1767366770998).toISOString() }]);
    expect(s.events().filter((e) => e.name === "appMessage" && e.action === "update")).toHaveLength(1);
  },
  "message-status/messages-update-status-read-lid.json": async () => {
    const alone = await scenario();
    await alone.feed("message-status/messages-update-status-read-lid.json");
    await expectNothingStored(alone);

    const s = await scenario();
    await handleBaileysEvent(s.ctx, "messages.upsert", {
      type: "notify",
      messages: [{ key: { remoteJid: "100000000000001@lid", id: "AC08701FBF0EEADEB4250A56C0B91BFB", fromMe: false }, message: { conversation: "oi" }, messageTimestamp: 1767366700 }],
    });
    await s.feed("message-status/messages-update-status-read-lid.json");
    const { message } = await single(s);
    expect(message.ack).toBe(4);
  },
  "presence/composing-lid.json": async () => {
    const alone = await scenario();
    expect((await alone.feed("presence/composing-lid.json")).skipped).toEqual([{ reason: "presence for a chat without an open ticket" }]);
    await expectNothingStored(alone);

    const s = await afterTextLid("presence/composing-lid.json");
    const { ticket } = await single(s);
    expect(ticket.presence).toBe("composing");
    const last = s.events().filter((e) => e.name === "ticket").at(-1);
    expect(last?.data.ticket).toMatchObject({ id: ticket.id, presence: "composing" });
  },
  "call/call-offer-voice-isgroup-false.json": async () => {
    const s = await scenario();
    // A company that takes calls: only the call log (refused calls also get the automatic answer, automation tests).
    await setSetting(s.cid, "call", "enabled");
    await s.feed("call/call-offer-voice-isgroup-false.json");
    const { message, ticket, contact } = await single(s);
    expect(message).toMatchObject({ id: "926709D7F80BC41B73AC2C1801536437", mediaType: "call_log", body: "Chamada de voz recebida", fromMe: false, waTimestamp: "2025-05-16T17:24:17.000Z" });
    expect(contact).toMatchObject({ number: "123456789", name: "123456789" });
    expect(ticket).toMatchObject({ lastMessage: "Chamada de voz recebida", unreadMessages: 1 });
  },

  // ---- payloads without a user-visible message ------------------------------------------------------------------
  ...Object.fromEntries(
    (
      [
        ["lid/key-lid-remotejidalt-addressingmode-fromme.json", "no message content"],
        ["lid/lid-remotejid-senderpn-no-message.json", "no message content"],
        ["view-once/view-once-stub-key-isviewonce.json", "invalid remoteJid @s.whatsapp.net"],
        ["link-preview/status-text-link-preview-sent.json", "status@broadcast ignored"],
        ["status-broadcast/status-audio-ptt-sent.json", "status@broadcast ignored"],
        ["status-broadcast/status-received-skdm-only-partial.json", "status@broadcast ignored"],
      ] as const
    ).map(([rel, reason]) => [
      rel,
      async () => {
        const s = await scenario();
        expect((await s.feed(rel)).skipped).toEqual([{ reason }]);
        await expectNothingStored(s);
      },
    ]),
  ),
  ...Object.fromEntries(
    ["chats-update/archive-chat-lid.json", "chats-update/mute-chat-lid.json", "chats-update/pin-chat-lid.json"].map((rel) => [
      rel,
      async () => {
        const s = await scenario();
        await s.feed(TEXT_LID);
        const before = await s.state();
        const eventsBefore = s.events().length;
        const out = await s.feed(rel);
        expect(out).toEqual({ handled: true, skipped: [{ reason: "chat state not shown in the inbox" }] });
        expect(await s.state()).toEqual(before);
        expect(s.events()).toHaveLength(eventsBefore);
      },
    ]),
  ),
  ...Object.fromEntries(
    [
      "connection/close-401-logged-out-cln.json",
      "connection/close-515-restart-required-elided.json",
      "connection/connecting-receivedpendingnotifications-false.json",
      "connection/error-440-stream-errored-conflict.json",
      "connection/lastdisconnect-428-connection-terminated.json",
      "connection/received-pending-notifications-true.json",
    ].map((rel) => [
      rel,
      async () => {
        const s = await scenario();
        expect(await s.feed(rel)).toEqual({ handled: false, skipped: [{ reason: "event not ingested: connection.update" }] });
        await expectNothingStored(s);
      },
    ]),
  ),
};

describe("every fixture under ../shared/fixtures/wa", () => {
  it("has an expectation here for each fixture file, and no expectation without a file", () => {
    const files = listFixtures();
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => !(f in expectations))).toEqual([]);
    expect(Object.keys(expectations).filter((k) => !files.includes(k))).toEqual([]);
  });

  for (const rel of listFixtures()) {
    const run = expectations[rel];
    if (run) it(`shows an agent what ${rel} carries`, run);
  }
});
