/**
 * `contacts.upsert` / `contacts.update` (the phone's address book and profile changes): a contact who already wrote
 * (or was written to) gets the saved, business or push name in place of a placeholder, and the profile picture.
 * Address-book entries never create contacts.
 */
import { patchContact } from "../../contacts/repository.ts";
import { updateContact } from "../../contacts/service.ts";
import { dispatch } from "../../events/index.ts";
import "../../contacts/events.ts";
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
    let contact = await knownContact(ctx, jids);
    // The phone's address book does not create contacts: only people who wrote (or were written to) are kept.
    if (!contact) {
      skipped.push({ reason: "address-book entry without a contact" });
      return;
    }
    // The name saved in the phone's address book, else the business or push name; only replaces a placeholder.
    const name = (c.name ?? c.verifiedName ?? c.notify)?.trim();
    if (name && name.length >= 2 && hasPlaceholderName(contact)) {
      contact = await updateContact(ctx.companyId, contact.id, { name: name.slice(0, 50) });
    }
    if (c.imgUrl === null || (typeof c.imgUrl === "string" && /^https?:\/\//.test(c.imgUrl))) {
      const pic = c.imgUrl ?? "";
      if (pic !== contact.profilePicUrl) {
        const next = await patchContact(ctx.companyId, contact.id, { profilePicUrl: pic });
        if (next) await dispatch({ type: "contact.updated", companyId: ctx.companyId, contact: next });
      }
    }
  });
}
