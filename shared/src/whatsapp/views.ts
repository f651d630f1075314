/** How a connection is shown by the API and the realtime frames. */
import type { QueueRef } from "./repository.ts";
import type { WhatsappItem, WhatsappView } from "./schema.ts";

/**
 * The item as the API and realtime events show it (internal shard dropped; API token and pairing QR code blanked for
 * non-admins: a QR code pairs a phone with the company's number).
 */
export function toView(item: WhatsappItem, opts: { admin: boolean; queues?: QueueRef[] }): WhatsappView {
  const { shard: _shard, ...rest } = item;
  const view: WhatsappView = { ...rest, token: opts.admin ? item.token : "", qrcode: opts.admin ? item.qrcode : "" };
  if (opts.queues) {
    const byId = new Map(opts.queues.map((q) => [q.id, q]));
    view.queues = item.queueIds.map((id) => byId.get(id)).filter((q): q is QueueRef => !!q);
  }
  return view;
}
