/**
 * WhatsApp identity resolution (across Baileys 6.7 and 7, whose key fields differ; see below).
 *
 * A person may be addressed by phone-number JID (`<digits>@s.whatsapp.net`, old `@c.us`) or by LID (`<id>@lid`).
 * Baileys 7 names the other one in `key.remoteJidAlt` (chat) / `key.participantAlt` (group sender) and says which is
 * primary in `key.addressingMode`; Baileys 6.7.x used `key.senderPn` / `key.senderLid` (`participantPn` /
 * `participantLid` in groups). `resolveKey` collects every identity a key reveals so the contacts service can keep
 * one contact per person per company and merge a LID with its phone number when a later event shows both.
 *
 * JIDs stay inside the ingest service and the runner; contacts get `number` = E.164 digits without `+`
 * (docs/product/contacts.md#numbers), and only when a phone-number JID is known.
 */
import {
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  jidDecode,
  jidNormalizedUser,
} from "@whiskeysockets/baileys/lib/WABinary/jid-utils.js";
import type { WAMessageKey } from "./schema.ts";

/** Longest JID accepted (real ones are under 40 characters). */
export const MAX_JID_CHARS = 128;
const PN_SERVERS = new Set(["s.whatsapp.net", "c.us"]);
const USER_SERVERS = new Set(["s.whatsapp.net", "c.us", "lid", "hosted", "hosted.lid"]);

/** A person's JID without device/agent (`5511...:3@s.whatsapp.net` → `5511...@s.whatsapp.net`), or undefined if invalid. */
export function normalizeUserJid(jid: string | undefined | null): string | undefined {
  if (!jid || jid.length > MAX_JID_CHARS) return undefined;
  const d = jidDecode(jid);
  if (!d?.user || !USER_SERVERS.has(d.server)) return undefined;
  return jidNormalizedUser(jid);
}

/** E.164 digits of a phone-number JID, else undefined (LIDs carry no phone number). */
export function phoneDigits(jid: string | undefined): string | undefined {
  if (!jid) return undefined;
  const d = jidDecode(jid);
  if (!d?.user || !PN_SERVERS.has(d.server) || !/^\d{5,20}$/.test(d.user)) return undefined;
  return d.user;
}

/** The user part of a JID (`1000…@lid` → `1000…`). */
export function jidUser(jid: string): string {
  return jidDecode(jid)?.user ?? jid;
}

/** Orders a person's JIDs phone-number first, without duplicates. */
function personJids(...candidates: (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const c of candidates) {
    const n = normalizeUserJid(c);
    if (n && !out.includes(n)) out.push(n);
  }
  return out.sort((a, b) => Number(isLidUser(a)) - Number(isLidUser(b)));
}

/** One person as the ingest service hands it to the contacts service. */
export interface PersonIdentity {
  /** Every JID known for the person, phone-number JID first. */
  jids: string[];
  /** E.164 digits, when a phone-number JID is known. */
  number?: string;
}

export interface ChatIdentity {
  /** The chat JID as Baileys addresses it (normalized): alias and lookup key of the chat's messages. */
  chatJid: string;
  /** Other JIDs of the same chat (e.g. the PN JID of a LID chat): also tried when looking a message up. */
  altChatJids: string[];
  isGroup: boolean;
  /** The ticket's contact: the person (1:1) or the group (`jids: [groupJid]`, `number` = group id). */
  contact: PersonIdentity;
  /** Group messages: the sender (phone-number JID preferred) and all their JIDs; null in 1:1 chats or when unknown. */
  participant: string | null;
  participantIdentity: PersonIdentity | null;
}

export type ResolveResult = { ok: true; identity: ChatIdentity } | { ok: false; reason: string };

/**
 * Resolves a message key (plus the top-level `participant` old captures carry) to the chat and the people in it.
 * Refuses status/broadcast/newsletter chats and malformed JIDs with a reason.
 */
export function resolveKey(key: WAMessageKey, topLevelParticipant?: string): ResolveResult {
  const remoteJid = key.remoteJid;
  if (!remoteJid) return { ok: false, reason: "missing remoteJid" };
  // Real JIDs are short; anything long would only make oversized keys.
  if (remoteJid.length > MAX_JID_CHARS) return { ok: false, reason: "invalid remoteJid (too long)" };
  if (isJidBroadcast(remoteJid)) return { ok: false, reason: remoteJid === "status@broadcast" ? "status@broadcast ignored" : "broadcast list ignored" };
  if (isJidNewsletter(remoteJid)) return { ok: false, reason: "newsletter ignored" };
  if (/^0@(s\.whatsapp\.net|c\.us)$/.test(remoteJid) || remoteJid === "server@c.us") return { ok: false, reason: "WhatsApp service account ignored" };

  if (isJidGroup(remoteJid)) {
    const d = jidDecode(remoteJid);
    if (!d?.user) return { ok: false, reason: `invalid remoteJid ${remoteJid}` };
    const groupJid = `${d.user}@g.us`;
    const sender = key.participant ?? topLevelParticipant;
    const jids = personJids(sender, key.participantAlt, key.participantPn, key.participantLid, isLidUser(sender ?? "") ? key.senderPn : key.senderLid);
    const participantIdentity = jids.length ? { jids, number: phoneDigits(jids[0]) } : null;
    return {
      ok: true,
      identity: {
        chatJid: groupJid,
        altChatJids: [],
        isGroup: true,
        contact: { jids: [groupJid], number: d.user },
        participant: jids[0] ?? null,
        participantIdentity,
      },
    };
  }

  const chatJid = normalizeUserJid(remoteJid);
  if (!chatJid) return { ok: false, reason: `invalid remoteJid ${remoteJid}` };
  // senderPn/senderLid (6.7.x) describe the sender: in a 1:1 chat that is the other person only for inbound messages.
  const legacyAlt = key.fromMe ? undefined : isLidUser(chatJid) ? key.senderPn : key.senderLid;
  const jids = personJids(chatJid, key.remoteJidAlt, legacyAlt);
  return {
    ok: true,
    identity: {
      chatJid,
      altChatJids: jids.filter((j) => j !== chatJid),
      isGroup: false,
      contact: { jids, number: jids.map(phoneDigits).find(Boolean) },
      participant: null,
      participantIdentity: null,
    },
  };
}
