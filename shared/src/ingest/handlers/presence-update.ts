/** `presence.update`: a contact typing or recording shows on their open ticket (`setTicketPresence`); anything else clears it. */
import { getActiveTicketId, isActiveStatus } from "../../tickets/repository.ts";
import { setTicketPresence } from "../../tickets/service.ts";
import { contactIdByJid, guard, type IngestContext, type Skips } from "../context.ts";
import { normalizeUserJid } from "../identity.ts";
import { keepOpenTicket, openTicketCopy } from "../read-cache.ts";
import { PresenceUpdate } from "../schema.ts";

const TICKET_PRESENCES = new Set(["composing", "recording"]);

export async function onPresenceUpdate(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const p = PresenceUpdate.safeParse(data);
  if (!p.success) {
    skipped.push({ reason: "invalid presence.update payload" });
    return;
  }
  await guard(skipped, async () => {
    const { id, presences } = p.data;
    const isGroup = id.endsWith("@g.us");
    const chatJid = isGroup ? id : normalizeUserJid(id);
    if (!chatJid) {
      skipped.push({ reason: `invalid presence id ${id}` });
      return;
    }
    const entries = Object.entries(presences);
    const own = entries.find(([jid]) => normalizeUserJid(jid) === chatJid);
    // In a group anyone typing shows the group as typing; in a chat the contact's own entry counts.
    const states = (own ? [own] : entries).map(([, v]) => v.lastKnownPresence ?? "");
    const presence = states.find((s) => TICKET_PRESENCES.has(s)) ?? "";
    const contactId = await contactIdByJid(ctx.companyId, chatJid);
    const copy = contactId ? openTicketCopy(ctx.companyId, ctx.whatsappId, contactId) : undefined;
    const ticketId = copy?.id ?? (contactId ? await getActiveTicketId(ctx.companyId, ctx.whatsappId, contactId) : null);
    if (!ticketId) {
      skipped.push({ reason: "presence for a chat without an open ticket" });
      return;
    }
    // The write answers with the stored item: the ingest's copy stays exact (the customer's next text needs no read).
    const t = await setTicketPresence(ctx.companyId, ticketId, presence);
    if (t && isActiveStatus(t.status) && t.whatsappId === ctx.whatsappId) keepOpenTicket(t);
  });
}
