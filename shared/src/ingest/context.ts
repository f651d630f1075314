/**
 * What every ingest handler shares: the context the runner passes, the skip list, the tunables,
 * and the few helpers more than one Baileys event handler uses (per-item guard with retries, payload arrays, the
 * group setting, contact lookups by JID).
 */
import { findOrCreateContactByIdentity } from "../contacts/service.ts";
import { getContactItem, readMarker } from "../contacts/repository.ts";
import type { ContactItem } from "../contacts/schema.ts";
import type { z } from "zod";
import { AppError } from "../errors.ts";
import { getSetting } from "../settings/service.ts";
import { jidUser, MAX_JID_CHARS, phoneDigits } from "./identity.ts";
import { withRetries } from "./parking.ts";

export interface IngestContext {
  companyId: number;
  whatsappId: number;
  /**
   * Opens a message's media with Baileys' downloadMediaMessage (time-limited); null on failure. Answers a `stream`
   * (the runner: never buffered, streamed on to S3 and cut at `maxBytes`), small `bytes` (tests), or
   * `{tooLarge: true, size}` when the downloader already knows the file passes `maxBytes`.
   */
  downloadMedia?: (msg: unknown, maxBytes?: number) => Promise<MediaDownload>;
  /**
   * Optional: the subject of a group (Baileys' `groupMetadata(jid).subject`), asked only while the group's contact
   * still carries its id as name; null when unknown. Without it groups are named by `groups.update`.
   */
  groupSubject?: (groupJid: string) => Promise<string | null>;
  /** Optional: rejects a ringing call (Baileys' `sock.rejectCall(callId, callFrom)`); used when setting `call` is disabled. */
  rejectCall?: (callId: string, callFrom: string) => Promise<void>;
}

/** What {@link IngestContext.downloadMedia} answers (see `./media.ts` for the size limits). */
export type MediaDownload =
  | { stream: AsyncIterable<Uint8Array>; mimetype: string }
  | { bytes: Uint8Array; mimetype: string }
  | { tooLarge: true; size: number }
  | null;

/** Items an event handler skipped, each with its reason (returned to the runner, which logs them). */
export type Skips = { reason: string }[];

/** One Baileys event's handler: `data` is the listener's argument as received (parsed with zod inside). */
export type Handler = (ctx: IngestContext, data: unknown, skipped: Skips) => Promise<void>;

/** Longest WhatsApp message id accepted (real ids are 16-32 characters); longer ones would only make oversized keys. */
export const MAX_WA_ID_CHARS = 128;

/**
 * Tunables (tests shorten the media time limit). `mediaTimeoutMs`: longest wait for a media download (or a group's
 * subject) to start; `mediaTransferTimeoutMs`: longest stream from WhatsApp's CDN to S3 of one file.
 */
export const ingestOptions = { mediaTimeoutMs: 30_000, mediaTransferTimeoutMs: 300_000 };

const isRefusal = (err: unknown) => err instanceof AppError && (err.status === 400 || err.status === 404);

/**
 * Runs one item's work; a domain refusal of the payload (AppError 400/404) becomes a skip, anything else
 * (infrastructure, 409 conflicts that kept failing) propagates after the bounded retries.
 */
export async function guard(skipped: Skips, fn: () => Promise<void>): Promise<void> {
  try {
    // Infrastructure failures (throttling, 5xx, conflicts that kept failing, ERR_CREATING_TICKET) are retried with
    // backoff a few times; every write is idempotent, so a retry after a partial success is harmless.
    await withRetries(fn, (err) => !isRefusal(err));
  } catch (err) {
    if (isRefusal(err)) {
      skipped.push({ reason: `refused: ${(err as AppError).code}` });
      return;
    }
    throw err;
  }
}

/**
 * The items of an array-shaped event (`messages.update`, `call`, ...), each run through {@link guard} with `fn`;
 * a payload that is not an array is skipped as `invalid <event> payload`.
 */
export async function eachGuarded(event: string, data: unknown, skipped: Skips, fn: (raw: unknown) => Promise<void>): Promise<void> {
  if (!Array.isArray(data)) {
    skipped.push({ reason: `invalid ${event} payload` });
    return;
  }
  for (const raw of data) await guard(skipped, () => fn(raw));
}

/**
 * Parses one item of an array-shaped event that names a message by `key.id` (updates, reactions, receipts): the
 * parsed item, or null with `reason` skipped when it does not parse or has no id.
 */
export function parseKeyed<T extends { key: { id?: string | null } }>(schema: z.ZodType<T>, raw: unknown, reason: string, skipped: Skips): (T & { key: { id: string } }) | null {
  const p = schema.safeParse(raw);
  if (p.success && p.data.key.id) return p.data as T & { key: { id: string } };
  skipped.push({ reason });
  return null;
}

/** True when group messages are to be ignored (setting `CheckMsgIsGroup` = `enabled`, the default). */
export async function groupsIgnored(companyId: number): Promise<boolean> {
  return (await getSetting(companyId, "CheckMsgIsGroup")) === "enabled";
}

/** The contact id that owns a JID in this company, or null. */
export async function contactIdByJid(companyId: number, jid: string | undefined): Promise<number | null> {
  if (!jid || jid.length > MAX_JID_CHARS) return null;
  return readMarker(companyId, { kind: "jid", value: jid });
}

/**
 * The existing contact known by any of `jids` (null when none: address-book entries and mappings never create
 * contacts). When `jids` reveal identities the contact lacks (a LID and its phone number), they are merged onto it.
 */
export async function knownContact(ctx: IngestContext, jids: string[]): Promise<ContactItem | null> {
  let contactId: number | null = null;
  for (const j of jids) contactId ??= await contactIdByJid(ctx.companyId, j);
  if (!contactId) return null;
  const contact = await getContactItem(ctx.companyId, contactId);
  if (!contact || jids.every((j) => contact.jids.includes(j))) return contact;
  return findOrCreateContactByIdentity(ctx.companyId, { jids, number: jids.map(phoneDigits).find(Boolean), name: "", isGroup: false });
}

/** True when a contact still carries a placeholder name (its number or a JID's user part). */
export function hasPlaceholderName(contact: ContactItem): boolean {
  return !contact.name || contact.name === contact.number || contact.jids.some((j) => jidUser(j) === contact.name);
}
