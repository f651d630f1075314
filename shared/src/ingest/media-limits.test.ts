/**
 * Proof at the ingest that one customer cannot take every session down with media. The announced size
 * (`fileLength`) is read before any download: a 1.5 GB document is never downloaded and is stored marked too large
 * with a note for the agent; a download that passes its kind's limit is cut the same way; 50 images at once are all
 * stored while another customer's text goes through. Files under the limit are streamed to S3 with a multipart
 * upload, pulled from the CDN only as fast as parts are sent, never held whole; an endless stream is cut at the limit.
 */
import { createHash } from "node:crypto";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { getConfig } from "../config.ts";
import { MEDIA_PART_BYTES, MEDIA_PARTS_IN_FLIGHT, s3Client } from "../storage/media.ts";
import { registerSocket } from "../users/realtime-capture.testkit.ts";
import { handleBaileysEvent, mediaSizeLimits, type IngestContext } from "./index.ts";
import { freshCompanyId, storedState, useIngestStack } from "./testkit.ts";

const capture = useIngestStack();

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
      downloadMedia: async (msg: any) => {
        downloads.push(msg.key.id);
        return { bytes: Buffer.alloc(10), mimetype: "application/zip" };
      },
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
      downloadMedia: async (_msg, maxBytes) => {
        asked.push(maxBytes);
        return { tooLarge: true, size: (maxBytes ?? 0) + 1 };
      },
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

  /** A CDN stream of `total` bytes (Infinity: endless) in 64 KiB chunks, counting what was pulled; sha256 of what it gave. */
  function cdnStream(total: number) {
    const chunk = Buffer.alloc(64 * 1024);
    const hash = createHash("sha256");
    const state = { pulled: 0, digest: () => hash.digest("hex") };
    async function* gen() {
      for (let i = 0; state.pulled < total; i++) {
        chunk.fill(i % 251);
        const part = chunk.subarray(0, Math.min(chunk.length, total - state.pulled));
        state.pulled += part.length;
        hash.update(part);
        yield Buffer.from(part);
      }
    }
    return { state, stream: gen() };
  }

  /** Records every S3 command the client sends, with how many bytes the CDN stream had given at that moment. */
  function recordS3(state: { pulled: number }) {
    const sent: { command: string; pulled: number }[] = [];
    const name = `record-${Math.random()}`;
    s3Client().middlewareStack.add(
      (next, context) => async (args) => {
        sent.push({ command: context.commandName ?? "", pulled: state.pulled });
        return next(args);
      },
      { step: "initialize", name },
    );
    return { sent, remove: () => s3Client().middlewareStack.remove(name) };
  }

  it("streams a 12 MiB document to S3 in parts, pulling from the CDN only as parts are sent; the stored file is the sent one", async () => {
    const total = 12 * 2 ** 20;
    const cdn = cdnStream(total);
    const ctx: IngestContext = { companyId: freshCompanyId(), whatsappId: 4, downloadMedia: async () => ({ stream: cdn.stream, mimetype: "application/pdf" }) };
    const rec = recordS3(cdn.state);
    try {
      await handleBaileysEvent(ctx, "messages.upsert", {
        messages: [media("3EB0STREAMDOC0000001", "5511970000005", { documentMessage: { mimetype: "application/pdf", fileName: "contrato.pdf", fileLength: total, url: "https://mmg.whatsapp.net/d", mediaKey: "AAAA" } })],
        type: "notify",
      });
    } finally {
      rec.remove();
    }
    const [m] = (await storedState(ctx.companyId)).messages;
    expect(m).toMatchObject({ mediaError: false, mediaSize: total, mediaName: "contrato.pdf" });
    const parts = rec.sent.filter((c) => c.command === "UploadPartCommand");
    // (GetObject: the frame's presigned link, built through the same client.)
    expect(rec.sent.map((c) => c.command).filter((c) => c !== "GetObjectCommand")).toEqual(["CreateMultipartUploadCommand", ...parts.map(() => "UploadPartCommand"), "CompleteMultipartUploadCommand"]);
    expect(parts).toHaveLength(Math.ceil(total / MEDIA_PART_BYTES));
    // Back-pressure: when part i leaves, the CDN has given at most the parts in flight, the one being cut and a chunk more.
    parts.forEach((p, i) => {
      expect(p.pulled).toBeLessThanOrEqual((i + 2 + MEDIA_PARTS_IN_FLIGHT) * MEDIA_PART_BYTES);
    });
    const obj = await s3Client().send(new GetObjectCommand({ Bucket: getConfig().MEDIA_BUCKET, Key: m.mediaKey! }));
    const stored = Buffer.from(await obj.Body!.transformToByteArray());
    expect(stored.length).toBe(total);
    expect(createHash("sha256").update(stored).digest("hex")).toBe(cdn.state.digest());
  }, 120_000);

  it("cuts an endless stream that announced no size at the document limit: nothing stored in S3, marked too large", async () => {
    const saved = mediaSizeLimits.document;
    mediaSizeLimits.document = 12 * 2 ** 20;
    const cdn = cdnStream(Number.POSITIVE_INFINITY);
    const ctx: IngestContext = { companyId: freshCompanyId(), whatsappId: 4, downloadMedia: async () => ({ stream: cdn.stream, mimetype: "video/mp4" }) };
    try {
      await handleBaileysEvent(ctx, "messages.upsert", {
        messages: [media("3EB0ENDLESSDOC000001", "5511970000006", { documentMessage: { mimetype: "video/mp4", fileName: "filme.mp4", url: "https://mmg.whatsapp.net/e", mediaKey: "AAAA" } })],
        type: "notify",
      });
    } finally {
      mediaSizeLimits.document = saved;
    }
    const [m] = (await storedState(ctx.companyId)).messages;
    expect(m).toMatchObject({ mediaKey: null, mediaError: true, mediaName: "filme.mp4" });
    expect(m.mediaSize).toBeGreaterThan(12 * 2 ** 20);
    expect(m.body).toContain("Arquivo grande demais para o atendimento");
    // Pulled just past the limit, not on and on.
    expect(cdn.state.pulled).toBeLessThanOrEqual(12 * 2 ** 20 + (MEDIA_PARTS_IN_FLIGHT + 1) * MEDIA_PART_BYTES + 64 * 1024);
    const listed = await s3Client().send(new ListObjectsV2Command({ Bucket: getConfig().MEDIA_BUCKET, Prefix: `media/${ctx.companyId}/` }));
    expect(listed.KeyCount ?? 0).toBe(0);
  }, 120_000);
});
