/**
 * The WhatsApp check of contact list items (docs/product/contact-lists.md#whatsapp-check): which numbers have a
 * WhatsApp account, asked through the session runner (Baileys' `onWhatsApp`) of the company's connection, in batches
 * of {@link CHECK_BATCH} numbers, one `checkNumbers` session command each; the runner asks one batch at a time per
 * connection and waits {@link CHECK_PACE_MS} between two (a burst of lookups is what gets a number flagged). Each
 * batch's answers are recorded with {@link recordWhatsappChecks}. Without a connected connection nothing is asked:
 * the items stay unchecked (`whatsappCheckedAt` null, `isWhatsappValid` false).
 */
import { nowIso } from "../common.ts";
import { dispatch } from "../events/index.ts";
import { sendSessionCommand } from "../whatsapp/commands.ts";
import { listWhatsappItems } from "../whatsapp/repository.ts";
import "./events.ts";
import { setWhatsappValid } from "./repository.ts";
import type { ContactListItemRow } from "./schema.ts";

/** Numbers per `onWhatsApp` call. */
export const CHECK_BATCH = 50;
/** Pause (ms) of a connection between two batches. */
export const CHECK_PACE_MS = 1000;

/** The connection that asks: the company's default one when connected, else any connected one, else none. */
async function checkingConnection(companyId: number): Promise<number | undefined> {
  const connected = (await listWhatsappItems(companyId)).filter((w) => w.status === "CONNECTED");
  return (connected.find((w) => w.isDefault) ?? connected[0])?.id;
}

/** Queues the WhatsApp check of `items` of a list (see the header). Returns how many commands were queued. */
export async function requestWhatsappCheck(companyId: number, contactListId: number, items: Pick<ContactListItemRow, "id" | "number">[]): Promise<number> {
  if (!items.length) return 0;
  const whatsappId = await checkingConnection(companyId);
  if (whatsappId === undefined) return 0;
  let queued = 0;
  for (let i = 0; i < items.length; i += CHECK_BATCH) {
    const batch = items.slice(i, i + CHECK_BATCH).map((it) => ({ id: it.id, number: it.number }));
    await sendSessionCommand({ type: "checkNumbers", companyId, whatsappId, contactListId, items: batch });
    queued++;
  }
  return queued;
}

/** Records one batch's answers (`valid` per item id) on the list's items (gone ones are skipped) and reloads its pages. */
export async function recordWhatsappChecks(companyId: number, contactListId: number, results: { id: number; valid: boolean }[]): Promise<void> {
  const at = nowIso();
  for (const r of results) await setWhatsappValid(companyId, contactListId, r.id, r.valid, at);
  await dispatch({ type: "contactListItem.reloaded", companyId, contactListId });
}
