/**
 * `contacts.upsert` / `contacts.update` (the phone's address book and profile changes): a contact who already wrote
 * (or was written to) gets the saved, business or push name in place of a placeholder, and the profile picture.
 * Address-book entries never create contacts.
 */
import { updateContact } from "../../contacts/service.ts";
import { eachGuarded, hasPlaceholderName, knownContact, type IngestContext, type Skips } from "../context.ts";
import { normalizeUserJid } from "../identity.ts";
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
