/**
 * Connections' domain events (see `docs/architecture.md` §4): `whatsapp.updated` (an admin's edit, with `previous`;
 * absent when created), `whatsapp.deleted`, `whatsapp.session` (session state reported by the session runner).
 * Realtime frames `company-{id}-whatsapp` and `company-{id}-whatsappSession`: they carry credentials (token) and QR
 * codes, so only holders of `connections:qrcode` (admins) get them.
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { WhatsappFrame, WhatsappSessionFrame } from "./contract.ts";
import { WhatsappItem } from "./schema.ts";
import { toView } from "./views.ts";

type Base<T extends string> = { type: T; companyId: number };

declare module "../events/registry.ts" {
  interface EventMap {
    /** A connection's settings changed (name, default, queues...). `previous`: the connection before an admin's edit (absent when created), so listeners see what changed. */
    "whatsapp.updated": Base<"whatsapp.updated"> & { whatsapp: WhatsappItem; previous?: WhatsappItem };
    "whatsapp.deleted": Base<"whatsapp.deleted"> & { whatsappId: number };
    /** A connection's session state changed (status, QR code, retries, number), reported by the session runner; with the status before. */
    "whatsapp.session": Base<"whatsapp.session"> & { whatsapp: WhatsappItem; previousStatus?: WhatsappItem["status"] };
  }
}

defineEvents({
  "whatsapp.updated": baseEvent("whatsapp.updated").extend({ whatsapp: WhatsappItem, previous: WhatsappItem.optional() }),
  "whatsapp.deleted": baseEvent("whatsapp.deleted").extend({ whatsappId: z.number().int() }),
  "whatsapp.session": baseEvent("whatsapp.session").extend({ whatsapp: WhatsappItem, previousStatus: WhatsappItem.shape.status.optional() }),
});


defineFrames({ whatsapp: WhatsappFrame, whatsappSession: WhatsappSessionFrame });

const admins = { kind: "permission", permission: "connections:qrcode" } as const;
realtimeFrames("whatsapp.updated", (e) => [{ name: "whatsapp", data: { action: "update", whatsapp: toView(e.whatsapp, { admin: true }) }, audience: admins }]);
realtimeFrames("whatsapp.deleted", (e) => [{ name: "whatsapp", data: { action: "delete", whatsappId: e.whatsappId }, audience: admins }]);
realtimeFrames("whatsapp.session", (e) => {
  const view = toView(e.whatsapp, { admin: true });
  return [
    { name: "whatsappSession", data: { action: "update", session: view }, audience: admins },
    { name: "whatsapp", data: { action: "update", whatsapp: view }, audience: admins },
  ];
});
