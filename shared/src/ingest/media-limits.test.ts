/**
 * Issue 8 §3 proof at the ingest: one customer cannot take every session down with media. The announced size
 * (`fileLength`) is read before any download: a 1.5 GB document is never downloaded and is stored marked too large
 * with a note for the agent; a download that passes its kind's limit is cut the same way; 50 images at once are all
 * stored while another customer's text goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerSocket, startRealtimeCapture } from "../users/realtime-capture.testkit.ts";
import { handleBaileysEvent, mediaSizeLimits, type IngestContext } from "./index.ts";
import { freshCompanyId, startTestS3, storedState } from "./testkit.ts";

let capture: Awaited<ReturnType<typeof startRealtimeCapture>>;
let s3: { stop: () => Promise<void> };
beforeAll(async () => {
  capture = await startRealtimeCapture();
  s3 = await startTestS3();
});
afterAll(async () => {
  await capture?.stop();
  await s3?.stop();
});

const media = (id: string, from: string, message: Record<string, unknown>, ts = 1767366800) => ({
  key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id },
  message,
  messageTimestamp: ts,
  pushName: "Cliente",
});

describe("inbound media limits", () => {
  it("never downloads an announced 1.5 GB document: stored marked too large, with a note the agent sees", async () => {
    const downloads: string[] = [];
    const ctx: IngestContext = {
      companyId: freshCompanyId(),
      whatsappId: 4,
      downloadMedia: async (msg: any) => (downloads.push(msg.key.id), { bytes: Buffer.alloc(10), mimetype: "application/zip" }),
    };
    const socket = await registerSocket(ctx.companyId, { id: 1, profile: "admin" });
    const doc = media("3EB0HUGEDOC000000001", "5511970000001", {
      documentMessage: { mimetype: "application/zip", fileName: "backup.zip", fileLength: 1_500_000_000, url: "https://mmg.whatsapp.net/x", mediaKey: "AAAA" },
    });
    const r = await handleBaileysEvent(ctx, "messages.upsert", { messages: [doc], type: "notify" });
    expect(r.skipped).toEqual([]);
    expect(downloads).toEqual([]);
    const [m] = (await storedState(ctx.companyId)).messages;
    expect(m).toMatchObject({ mediaKey: null, mediaError: true, mediaSize: 1_500_000_000, mediaName: "backup.zip" });
    expect(m.body).toContain("backup.zip");
    expect(m.body).toContain("Arquivo grande demais para o atendimento (1,4 GB)");
    const frame = capture.frames.find((f) => f.connectionId === socket && f.event === `company-${ctx.companyId}-appMessage` && f.data.message.id === m.id);
    expect(frame?.data.message.body).toContain("grande demais");
  });

  it("cuts an image whose download passes the image limit, and keeps it marked too large", async () => {
    const asked: (number | undefined)[] = [];
    const ctx: IngestContext = {
      companyId: freshCompanyId(),
      whatsappId: 4,
      // The announced size lied (or was absent): the downloader stops at the limit it is given.
      downloadMedia: async (_msg, maxBytes) => (asked.push(maxBytes), { tooLarge: true, size: (maxBytes ?? 0) + 1 }),
    };
    await handleBaileysEvent(ctx, "messages.upsert", {
      messages: [media("3EB0BIGIMG0000000001", "5511970000002", { imageMessage: { mimetype: "image/jpeg", caption: "olha", url: "https://mmg.whatsapp.net/y", mediaKey: "AAAA" } })],
      type: "notify",
    });
    expect(asked).toEqual([mediaSizeLimits.image]);
    const [m] = (await storedState(ctx.companyId)).messages;
    expect(m).toMatchObject({ mediaKey: null, mediaError: true, mediaSize: mediaSizeLimits.image + 1 });
    expect(m.body.startsWith("olha\n\n📎 Arquivo grande demais")).toBe(true);
  });

  it("stores 50 images sent at once with their files while another customer's text goes through", async () => {
    const ctx: IngestContext = {
      companyId: freshCompanyId(),
      whatsappId: 4,
      downloadMedia: async (msg: any) => ({ bytes: Buffer.from(`jpeg ${msg.key.id}`), mimetype: "image/jpeg" }),
    };
    const images = Array.from({ length: 50 }, (_, i) =>
      media(`3EB0STORM${String(i).padStart(11, "0")}`, "5511970000003", { imageMessage: { mimetype: "image/jpeg", fileLength: 120_000, url: "https://mmg.whatsapp.net/z", mediaKey: "AAAA" } }, 1767366900 + i),
    );
    const text = media("3EB0CALMTEXT00000001", "5511970000004", { conversation: "ainda funciona?" }, 1767366950);
    await Promise.all([
      handleBaileysEvent(ctx, "messages.upsert", { messages: images, type: "notify" }),
      handleBaileysEvent(ctx, "messages.upsert", { messages: [text], type: "notify" }),
    ]);
    const st = await storedState(ctx.companyId);
    expect(st.messages.filter((m) => m.mediaType === "image" && m.mediaKey && !m.mediaError)).toHaveLength(50);
    expect(st.messages.some((m) => m.body === "ainda funciona?")).toBe(true);
  }, 120_000);
});
