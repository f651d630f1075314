/** `groups.update`: a group's new subject becomes its contact's name (groups that never wrote have no contact and are skipped). */
import { getContactItem } from "../../contacts/repository.ts";
import { updateContact } from "../../contacts/service.ts";
import { contactIdByJid, eachGuarded, type IngestContext, type Skips } from "../context.ts";
import { GroupUpdate } from "../schema.ts";

export async function onGroupsUpdate(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  await eachGuarded("groups.update", data, skipped, async (raw) => {
    const p = GroupUpdate.safeParse(raw);
    if (!p.success || !p.data.id?.endsWith("@g.us")) {
      skipped.push({ reason: "unreadable groups.update item" });
      return;
    }
    const contactId = await contactIdByJid(ctx.companyId, p.data.id);
    if (!contactId) {
      skipped.push({ reason: "group without a contact" });
      return;
    }
    const subject = p.data.subject?.trim();
    if (!subject) {
      skipped.push({ reason: "group update without a subject" });
      return;
    }
    const contact = await getContactItem(ctx.companyId, contactId);
    if (contact && contact.name !== subject.slice(0, 50)) await updateContact(ctx.companyId, contactId, { name: subject.slice(0, 50) });
  });
}
