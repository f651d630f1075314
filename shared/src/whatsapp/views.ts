/** How a connection is shown by the API and the realtime frames. */
import type { QueueRef } from "./repository.ts";
import type { WhatsappItem, WhatsappView } from "./schema.ts";

/**
 * The item as the API and realtime events show it (internal shard and sealed token dropped; the pairing QR code blanked
 * for non-admins: a QR code pairs a phone with the company's number). `token` is `opts.token` (the opened API token)
 * for admins, else "".
 */
export function toView(item: WhatsappItem, opts: { admin: boolean; token?: string; queues?: QueueRef[] }): WhatsappView {
  const { shard: _shard, tokenSealed: _sealed, tokenHash: _hash, ...rest } = item;
  const view: WhatsappView = { ...rest, token: opts.admin ? (opts.token ?? "") : "", qrcode: opts.admin ? item.qrcode : "" };
  if (opts.queues) {
    const byId = new Map(opts.queues.map((q) => [q.id, q]));
    view.queues = item.queueIds.map((id) => byId.get(id)).filter((q): q is QueueRef => !!q);
  }
  return view;
}
