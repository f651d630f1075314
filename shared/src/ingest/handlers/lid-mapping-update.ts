/** Baileys 7 `lid-mapping.update` `{lid, pn}`: the same person under both identities — merged when already a contact. */
import { guard, knownContact, type IngestContext, type Skips } from "../context.ts";
import { normalizeUserJid } from "../identity.ts";
import { LidMapping } from "../schema.ts";

export async function onLidMappingUpdate(ctx: IngestContext, data: unknown, skipped: Skips): Promise<void> {
  const p = LidMapping.safeParse(data);
  const jids = p.success ? [normalizeUserJid(p.data.pn), normalizeUserJid(p.data.lid)] : [];
  if (!jids[0] || !jids[1]) {
    skipped.push({ reason: "invalid lid-mapping.update payload" });
    return;
  }
  await guard(skipped, async () => {
    if (!(await knownContact(ctx, jids as string[]))) skipped.push({ reason: "mapping for a person without a contact" });
  });
}
