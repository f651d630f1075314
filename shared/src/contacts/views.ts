/** How a contact is shown by the API and the realtime frames. */
import type { ContactItem } from "./schema.ts";

/** What the API returns for a contact (the stored entity minus index keys; `jids` kept for the runner-facing views). */
export function contactView(c: ContactItem): ContactItem {
  if (!c.campaignWaits) return c;
  const { campaignWaits: _waits, ...shown } = c;
  return shown;
}
