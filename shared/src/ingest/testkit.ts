/**
 * Test kit for the ingest tests (used only by tests and the bench): fixture loading, a fresh company per test, the
 * stored state of a company as an agent's views are built from it, and an in-process S3 (s3rver) for media.
 */
import { forgetVisibility } from "../access/visibility.ts";
import { clearReadCache } from "./read-cache.ts";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll } from "vitest";
import { ContactItem } from "../contacts/schema.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { scanPages } from "../db/query.ts";
import { MessageItem } from "../messages/schema.ts";
import { resetS3 } from "../storage/media.ts";
import { TicketItem } from "../tickets/schema.ts";
import { type CapturedFrame, startRealtimeCapture } from "../users/realtime-capture.testkit.ts";

/** The repository root (`/work/main` on the dev machine; CI clones `shared/` fixtures beside it). */
export const repoRoot = path.resolve(fileURLToPath(new URL("../../..", import.meta.url)));
/** The Baileys payload corpus: `../shared/fixtures/wa` relative to the repository root. */
export const FIXTURES_DIR = path.resolve(repoRoot, "../shared/fixtures/wa");

export interface Fixture {
  source: string;
  event: string;
  note: string;
  payload: any;
}

/** Every fixture file, as paths relative to {@link FIXTURES_DIR} (`text/conversation-1to1-2021.json`), sorted. */
export function listFixtures(dir = FIXTURES_DIR, prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFixtures(full, `${prefix}${name}/`));
    else if (name.endsWith(".json")) out.push(`${prefix}${name}`);
  }
  return out;
}

export function loadFixture(rel: string): Fixture {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, rel), "utf8")) as Fixture;
}

/** The bracket tag at the start of a fixture's note (`WAMessage`, `send-result`, `event`...). */
export function formOf(f: Fixture): string {
  return /^\[([^\]]+)\]/.exec(f.note)?.[1] ?? "";
}

/**
 * The listener argument Baileys would pass for a fixture, by its form (fixtures README "Payload forms"):
 * single WAMessages are wrapped in `{messages, type}` (`append` for send results, which Baileys emits for own
 * sends), update/reaction elements in an array; `message-only` payloads get the key `key` the caller supplies
 * (the source did not print one); `key-only` payloads become a message with that key and no content.
 */
export function eventArg(f: Fixture, key?: Record<string, unknown>): unknown {
  const form = formOf(f);
  if (form === "event") return f.payload;
  if (form === "send-result") return { messages: [f.payload], type: "append" };
  if (form.startsWith("WAMessage,") || form === "WAMessage" || form === "evolution-data" || form === "waha-_data") {
    return { messages: [f.payload], type: "notify" };
  }
  if (form === "message-only") return { messages: [{ key, messageTimestamp: 1700000000, pushName: "Contact A", ...f.payload }], type: "notify" };
  if (form === "key-only") return { messages: [{ key: f.payload }], type: "append" };
  if (form === "WAMessageUpdate" || form === "element of messages.reaction array") return [f.payload];
  return f.payload; // lastDisconnect / lastDisconnect.error: fed as printed (connection.update is not ingested)
}

let companySeq = 1000 + Math.floor(Math.random() * 1000);
/** A company id no other test of this file uses (each file has its own table anyway). */
export const freshCompanyId = () => ++companySeq;

/** Sets a company setting item directly (the settings service reads it). */
export async function setSetting(companyId: number, key: string, value: string): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.setting(companyId, key), _type: "setting", key, value, companyId, updatedAt: new Date().toISOString() },
    }),
  );
  // Written behind the settings service's back (no `setting.updated`): drop what this process cached of them.
  forgetVisibility(companyId);
  clearReadCache();
}

export interface StoredState {
  contacts: ContactItem[];
  tickets: TicketItem[];
  /** Oldest first. */
  messages: MessageItem[];
  /** Every item of the company's entity partitions (`C#<cid>#...`, socket rooms aside): contacts, markers, tickets, messages, aliases. */
  itemCount: number;
}

/** Everything ingestion stored for a company, parsed with the features' schemas. */
export async function storedState(companyId: number): Promise<StoredState> {
  const items: Record<string, unknown>[] = [];
  const pages = scanPages({ FilterExpression: "begins_with(PK, :p)", ExpressionAttributeValues: { ":p": `C#${companyId}#` }, ConsistentRead: true });
  // Socket registrations (`C#<cid>#ROOM#...`) belong to the test's fake browser, not to ingestion.
  for await (const page of pages) items.push(...page.filter((i) => !String(i.PK).startsWith(`C#${companyId}#ROOM#`)));
  return {
    contacts: items.filter((i) => i.SK === "#CONTACT").map((i) => ContactItem.parse(i)),
    tickets: items.filter((i) => i.SK === "#TICKET").map((i) => TicketItem.parse(i)),
    messages: items
      .filter((i) => String(i.PK).includes("#TK#") && String(i.SK).startsWith("M#"))
      .map((i) => MessageItem.parse(i))
      .sort((a, b) => (a.waTimestamp < b.waTimestamp ? -1 : a.waTimestamp > b.waTimestamp ? 1 : 0)),
    itemCount: items.length,
  };
}

/** Starts s3rver (media bucket created) and points the S3 client at it; `stop` also removes its folder. */
export async function startTestS3(): Promise<{ stop: () => Promise<void> }> {
  const { startS3 } = await import("../../../infra/local/src/s3.ts");
  const directory = mkdtempSync(path.join(tmpdir(), "atende-ingest-s3-"));
  const s3 = await startS3({
    directory,
    bucket: process.env.MEDIA_BUCKET ?? "atende-media",
    origins: ["http://127.0.0.1"],
    accessKeyId: process.env.AWS_ACCESS_KEY_ID,
  });
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  resetS3();
  return {
    stop: async () => {
      await s3.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The opening every ingest integration test file shares: the `@connections` stand-in that records realtime frames and
 * s3rver for media, started before the file's tests and stopped after them. Returns the recorded frames (live).
 */
export function useIngestStack(): { readonly frames: CapturedFrame[] } {
  let capture: Awaited<ReturnType<typeof startRealtimeCapture>> | undefined;
  let s3: { stop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    capture = await startRealtimeCapture();
    s3 = await startTestS3();
  });
  afterAll(async () => {
    await capture?.stop();
    await s3?.stop();
  });
  return {
    get frames() {
      if (!capture) throw new Error("useIngestStack: frames read before the stack started");
      return capture.frames;
    },
  };
}
