/**
 * `contacts.upsert` / `contacts.update` (the phone's address book and profile changes): a contact who already wrote
 * (or was written to) gets the saved, business or push name in place of a placeholder, and the profile picture.
 * Address-book entries never create contacts here: `contacts.upsert` also keeps each entry with a phone number in the
 * connection's phone book (`keys.phoneBookEntry`), which `POST /api/contacts/import` turns into contacts on request.
 */
import { putPhoneBookEntries } from "../../contacts/repository.ts";
import type { PhoneBookEntry } from "../../contacts/schema.ts";
import { updateContact } from "../../contacts/service.ts";
import { eachGuarded, hasPlaceholderName, knownContact, type IngestContext, type Skips } from "../context.ts";
import { jidUser, normalizeUserJid } from "../identity.ts";
import { ContactUpdate } from "../schema.ts";

export async function onContactsUpdate(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  await eachGuarded("contacts.update", data, skipped, async (raw) => {
    const p = ContactUpdate.safeParse(raw);
    if (!p.success || !p.data.id) {
      skipped.push({ reason: "unreadable contact" });
      return;
    }
    const c = p.data;
    const jids = [c.id, c.lid, c.phoneNumber].map(normalizeUserJid).filter((j): j is string => !!j);
    const contact = await knownContact(ctx, jids);
    // The phone's address book does not create contacts: only people who wrote (or were written to) are kept.
    if (!contact) {
      skipped.push({ reason: "address-book entry without a contact" });
      return;
    }
    // The name saved in the phone's address book, else the business or push name; only replaces a placeholder.
    const name = (c.name ?? c.verifiedName ?? c.notify)?.trim();
    const change: { name?: string; profilePicUrl?: string } = {};
    if (name && name.length >= 2 && hasPlaceholderName(contact)) change.name = name.slice(0, 50);
    if (c.imgUrl === null || (typeof c.imgUrl === "string" && /^https?:\/\//.test(c.imgUrl))) {
      const pic = c.imgUrl ?? "";
      if (pic !== contact.profilePicUrl) change.profilePicUrl = pic;
    }
    // One edit of the contact (its tickets' rows show both), written with its event's pending runs.
    if (Object.keys(change).length) await updateContact(ctx.companyId, contact.id, change);
  });
}

/**
 * `contacts.upsert` (the phone's address book, at connection and on changes): keeps every entry that has a phone
 * number in the connection's phone book (each parsed at the edge; unreadable ones, groups and LID-only entries are
 * skipped), then applies the entries to known contacts as `contacts.update` does.
 */
export async function onContactsUpsert(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const now = new Date().toISOString();
  const entries = new Map<string, PhoneBookEntry>();
  for (const raw of Array.isArray(data) ? data : []) {
    const p = ContactUpdate.safeParse(raw);
    if (!p.success) continue;
    const c = p.data;
    const jid = [c.phoneNumber, c.id].map(normalizeUserJid).find((j) => j?.endsWith("@s.whatsapp.net"));
    if (!jid) continue;
    const text = (v: string | undefined) => v?.trim().slice(0, 100) || null;
    entries.set(jid, { jid, number: jidUser(jid), name: text(c.name), notify: text(c.notify), verifiedName: text(c.verifiedName), updatedAt: now });
  }
  if (entries.size) await putPhoneBookEntries(ctx.companyId, ctx.whatsappId, [...entries.values()]);
  await onContactsUpdate(ctx, data, skipped);
}
