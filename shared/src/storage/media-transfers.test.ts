/**
 * The runner's media memory is bounded however many connections receive media at once. Every
 * `putMediaStream` of a process takes one of `MEDIA_TRANSFERS_IN_FLIGHT` slots for its whole transfer; the others wait
 * with their download unread. Twelve transfers started together (twelve connections' customers sending a file at the
 * same moment): never more than the slots are being read at once, the rest wait, and every file ends up stored whole.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3 } from "../ingest/testkit.ts";
import { getMedia, MEDIA_TRANSFERS_IN_FLIGHT, mediaTransfers, putMediaStream } from "./media.ts";

let s3: { stop: () => Promise<void> };
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.stop();
});

describe("media transfers per process", () => {
  it("reads at most MEDIA_TRANSFERS_IN_FLIGHT downloads at once; the others wait their turn and are all stored", async () => {
    const files = 12;
    let reading = 0;
    let mostReading = 0;
    let mostWaiting = 0;
    /** A CDN download of `i`: 4 chunks of 64 KiB, yielding to the event loop between chunks so transfers interleave. */
    async function* download(i: number): AsyncGenerator<Uint8Array> {
      reading++;
      mostReading = Math.max(mostReading, reading);
      mostWaiting = Math.max(mostWaiting, mediaTransfers().pending);
      try {
        for (let c = 0; c < 4; c++) {
          await new Promise((r) => setImmediate(r));
          yield Buffer.alloc(64 * 1024, i + c);
        }
      } finally {
        reading--;
      }
    }
    const keys = Array.from({ length: files }, (_, i) => `media/1/1/transfer-${Date.now()}-${i}.bin`);
    const results = await Promise.all(keys.map((key, i) => putMediaStream(key, download(i), "application/octet-stream")));

    expect(results.every((r) => r.stored && r.size === 4 * 64 * 1024)).toBe(true);
    expect(mostReading).toBeLessThanOrEqual(MEDIA_TRANSFERS_IN_FLIGHT);
    expect(mostReading).toBeGreaterThan(1);
    expect(mostWaiting).toBeGreaterThan(0);
    expect(mediaTransfers()).toEqual({ active: 0, pending: 0 });
    for (const [i, key] of keys.entries()) {
      const stored = await getMedia(key);
      expect(stored.length).toBe(4 * 64 * 1024);
      expect([stored[0], stored[64 * 1024], stored[3 * 64 * 1024]]).toEqual([i, i + 1, i + 3]);
    }
  });
});
