/**
 * Contact entity (docs/product/contacts.md#fields: name 2-50, number 8-50, email optional and valid).
 * `number` is digits only with country code (E.164 without +); for groups it is the group id digits.
 */
import { z } from "zod";
import { zId } from "../common.ts";

export const ExtraInfo = z.object({ id: z.number().int().optional(), name: z.string().max(100), value: z.string().max(1000) });

/**
 * A campaign's shipping waiting for this contact's reply on one connection (docs/product/campaigns.md#replies):
 * `confirmation` (the reply brings the real message) or `close` (the ticket the reply opens is closed at once).
 */
export const ReplyWait = z.object({ campaignId: z.number().int(), seq: z.number().int(), kind: z.enum(["confirmation", "close"]) });
export type ReplyWait = z.infer<typeof ReplyWait>;

export const ContactItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  number: z.string(),
  email: z.string().default(""),
  profilePicUrl: z.string().default(""),
  isGroup: z.boolean().default(false),
  disableBot: z.boolean().default(false),
  active: z.boolean().default(true),
  presence: z.string().default("available"),
  extraInfo: z.array(ExtraInfo).default([]),
  /** WhatsApp identities known for this person: phone JID and/or LID (`...@lid`). Runner/ingest only. */
  jids: z.array(z.string()).default([]),
  lastInteractionAt: z.string().nullable().default(null),
  /** Campaign shippings waiting for this contact's reply, by connection id (never shown: the views drop it). */
  campaignWaits: z.record(z.string(), ReplyWait).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactItem = z.infer<typeof ContactItem>;

/**
 * One entry of a connection's phone book, as Baileys' `contacts.upsert` gave it (`keys.phoneBookEntry`): the person's
 * phone JID and number (digits), the name saved on the phone, the push name (`notify`) and the business name.
 */
export const PhoneBookEntry = z.object({
  jid: z.string(),
  number: z.string(),
  name: z.string().nullable().default(null),
  notify: z.string().nullable().default(null),
  verifiedName: z.string().nullable().default(null),
  updatedAt: z.string(),
});
export type PhoneBookEntry = z.infer<typeof PhoneBookEntry>;

/** `POST /api/contacts/import`: the connection whose phone book is imported (default: the company's default one). */
export const PhoneBookImportBody = z.object({ whatsappId: zId.optional() }).default({});

/** What a phone book import did: contacts `added`, numbers a contact already had (`existing`), entries `skipped`. */
export const PhoneBookImportCounts = z.object({ added: z.number().int(), existing: z.number().int(), skipped: z.number().int() });
export type PhoneBookImportCounts = z.infer<typeof PhoneBookImportCounts>;

export const ContactBody = z.object({
  name: z.string().trim().min(2, "Too Short!").max(50, "Too Long!"),
  number: z.string().trim().min(8, "Too Short!").max(50, "Too Long!"),
  email: z.string().trim().email("Invalid email").or(z.literal("")).default(""),
  disableBot: z.boolean().default(false),
  extraInfo: z.array(ExtraInfo).max(50).default([]),
});

/**
 * `PUT /api/contacts/{id}` body: every field optional and WITHOUT defaults, so a partial body changes only the fields
 * it carries (zod 4 applies `.default()` inside `.partial()`, which would wipe email, disableBot and extraInfo).
 */
export const ContactPatch = z.object({
  name: ContactBody.shape.name.optional(),
  number: ContactBody.shape.number.optional(),
  email: z.string().trim().email("Invalid email").or(z.literal("")).optional(),
  disableBot: z.boolean().optional(),
  extraInfo: z.array(ExtraInfo).max(50).optional(),
});

/** `company-{id}-contact` frames: the contact as the API shows it, or the deleted one's id. */
export const ContactFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), contact: ContactItem }),
  z.object({ action: z.literal("update"), contact: ContactItem }),
  z.object({ action: z.literal("delete"), contactId: z.number().int() }),
]);
export type ContactFrame = z.infer<typeof ContactFrame>;
