import { describe, expect, it } from "vitest";
import { locationBody, mapContent, textOf } from "./content.ts";
import { Bytes, LongLike, WAMessage } from "./schema.ts";

describe("LongLike", () => {
  it("reads numbers, numeric strings and protobuf Longs as the same number", () => {
    expect(LongLike.parse(1767366770998)).toBe(1767366770998);
    expect(LongLike.parse("1767366770998")).toBe(1767366770998);
    expect(LongLike.parse({ low: 2135212342, high: 411, unsigned: false })).toBe(1767366770998);
    expect(LongLike.parse({ low: -1, high: 0, unsigned: true })).toBe(4294967295);
    expect(LongLike.parse(10n)).toBe(10);
  });

  it("refuses what is not a number", () => {
    expect(LongLike.safeParse("[Object]").success).toBe(false);
    expect(LongLike.safeParse(null).success).toBe(false);
  });
});

describe("Bytes", () => {
  it("gives base64 for strings, Buffers and BufferJSON", () => {
    expect(Bytes.parse("AAE=")).toBe("AAE=");
    expect(Bytes.parse(Buffer.from([0, 1]))).toBe("AAE=");
    expect(Bytes.parse({ type: "Buffer", data: "AAE=" })).toBe("AAE=");
    expect(Bytes.parse({ type: "Buffer", data: [0, 1] })).toBe("AAE=");
  });
});

describe("WAMessage schema", () => {
  it("keeps a message whose sub-fields are elided or mistyped", () => {
    const m = WAMessage.parse({
      key: { remoteJid: "1@s.whatsapp.net", id: "X", fromMe: "false", participant: "" },
      message: "[Object]",
      messageTimestamp: { low: 5, high: 0 },
      status: "SERVER_ACK",
      messageStubType: 1,
    });
    expect(m.key.participant).toBeUndefined();
    expect(m.key.fromMe).toBe(false);
    expect(m.message).toBeUndefined();
    expect(m.messageTimestamp).toBe(5);
    expect(m.status).toBe(2);
    expect(m.messageStubType).toBe(1);
  });
});

describe("mapContent", () => {
  it("maps conversation and extended text to chat", () => {
    expect(mapContent({ conversation: "oi" })).toMatchObject({ kind: "message", mediaType: "chat", body: "oi" });
    expect(mapContent({ extendedTextMessage: { text: "olá", contextInfo: { stanzaId: "Q1", isForwarded: true } } })).toMatchObject({
      mediaType: "chat",
      body: "olá",
      quotedMsgId: "Q1",
      isForwarded: true,
    });
  });

  it("unwraps ephemeral, view-once and document-with-caption wrappers", () => {
    const image = { imageMessage: { mimetype: "image/jpeg", caption: "foto" } };
    expect(mapContent({ ephemeralMessage: { message: image } })).toMatchObject({ mediaType: "image", body: "foto" });
    expect(mapContent({ viewOnceMessageV2: { message: image } })).toMatchObject({ mediaType: "image", body: "foto" });
    expect(mapContent({ viewOnceMessage: { message: { ephemeralMessage: { message: image } } } })).toMatchObject({ mediaType: "image" });
    expect(
      mapContent({ documentWithCaptionMessage: { message: { documentMessage: { mimetype: "application/pdf", fileName: "a.pdf", caption: "segue" } } } }),
    ).toMatchObject({ mediaType: "application", body: "segue", media: { kind: "document", fileName: "a.pdf", mimetype: "application/pdf" } });
  });

  it("maps voice notes and audio files to audio, stickers to sticker, documents to application", () => {
    expect(mapContent({ audioMessage: { ptt: true, mimetype: "audio/ogg; codecs=opus" } })).toMatchObject({ mediaType: "audio", media: { kind: "audio" } });
    expect(mapContent({ audioMessage: { ptt: false } })).toMatchObject({ mediaType: "audio" });
    expect(mapContent({ stickerMessage: { mimetype: "image/webp" } })).toMatchObject({ mediaType: "sticker" });
    expect(mapContent({ documentMessage: { fileName: "x.epub", fileLength: "10" } })).toMatchObject({
      mediaType: "application",
      body: "x.epub",
      media: { size: 10 },
    });
  });

  it("builds the location body image|link|description", () => {
    expect(
      mapContent({ locationMessage: { degreesLatitude: -19.5, degreesLongitude: -43.25, name: "Praça", address: "Rua 1", jpegThumbnail: "QUJD" } }),
    ).toMatchObject({
      mediaType: "locationMessage",
      body: "data:image/jpeg;base64,QUJD|https://maps.google.com/maps?q=-19.5%2C-43.25&z=17|Praça\nRua 1",
    });
    expect(locationBody({ lat: 1, lng: 2 })).toBe("|https://maps.google.com/maps?q=1%2C2&z=17");
  });

  it("keeps the vCard of a contact message and joins a contacts array", () => {
    expect(mapContent({ contactMessage: { displayName: "A", vcard: "BEGIN:VCARD\nEND:VCARD" } })).toMatchObject({
      mediaType: "contactMessage",
      body: "BEGIN:VCARD\nEND:VCARD",
    });
    const many = mapContent({ contactsArrayMessage: { contacts: [{ vcard: "V1" }, { vcard: "V2" }] } });
    expect(many).toMatchObject({ mediaType: "contactMessage", body: "V1\nV2" });
  });

  it("recognises reactions, edits and revokes in every form", () => {
    expect(mapContent({ reactionMessage: { key: { id: "T" }, text: "👍", senderTimestampMs: "5" } })).toMatchObject({ kind: "reaction", emoji: "👍", atMs: 5 });
    expect(mapContent({ protocolMessage: { key: { id: "T" }, type: "REVOKE" } })).toEqual({ kind: "revoke", targetId: "T" });
    expect(mapContent({ protocolMessage: { key: { id: "T" }, type: 0 } })).toEqual({ kind: "revoke", targetId: "T" });
    expect(mapContent({ protocolMessage: { key: { id: "T" }, type: 14, editedMessage: { conversation: "novo" } } })).toEqual({
      kind: "edit",
      targetId: "T",
      body: "novo",
    });
    expect(mapContent({ editedMessage: { message: { extendedTextMessage: { text: "novo" } } } })).toEqual({ kind: "edit", body: "novo" });
    expect(
      mapContent({ editedMessage: { message: { protocolMessage: { key: { id: "T" }, type: "MESSAGE_EDIT", editedMessage: { conversation: "n" } } } } }),
    ).toEqual({ kind: "edit", targetId: "T", body: "n" });
  });

  it("stores nothing for key distribution, context-only and other protocol messages", () => {
    expect(mapContent({ senderKeyDistributionMessage: { groupId: "x" }, messageContextInfo: {} }).kind).toBe("none");
    expect(mapContent({ protocolMessage: { type: "EPHEMERAL_SETTING" } })).toMatchObject({ kind: "none", reason: "protocol message EPHEMERAL_SETTING" });
    expect(mapContent(null).kind).toBe("none");
    expect(mapContent("[Object]").kind).toBe("none");
    expect(mapContent({ pollUpdateMessage: {} })).toMatchObject({ kind: "none", reason: "unsupported content: pollUpdateMessage" });
  });

  it("shows the choice of a button or list reply as text", () => {
    expect(mapContent({ buttonsResponseMessage: { selectedDisplayText: "Sim" } })).toMatchObject({ mediaType: "chat", body: "Sim" });
    expect(mapContent({ listResponseMessage: { title: "Opção 2" } })).toMatchObject({ body: "Opção 2" });
  });

  it("reads the text of quoted or edited content", () => {
    expect(textOf({ imageMessage: { caption: "c" } })).toBe("c");
    expect(textOf({ reactionMessage: { key: { id: "x" } } })).toBe("");
  });
});
