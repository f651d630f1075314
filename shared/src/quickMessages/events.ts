/**
 * Quick messages' domain events, declared from the feature's own folder: `quickMessage.created|updated` carry the
 * quick message as the API answers it (an update also says whether it was `geral` before), `quickMessage.deleted`
 * its id, owner and `geral`. The realtime frame is `company-{id}-quickmessage` `{action: "create"|"update", record}` /
 * `{action: "delete", id}`: a `geral` one goes to the whole company, any other one only to its owner and to the holders
 * of `quick-messages:editAny` (the users who may see it). A `geral` one made personal is a delete for everyone else.
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import type { Audience } from "../realtime/publish.ts";
import { QuickMessage, QuickMessageEvent } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "quickMessage.created": { type: "quickMessage.created"; companyId: number; record: QuickMessage };
    "quickMessage.updated": { type: "quickMessage.updated"; companyId: number; record: QuickMessage; wasGeral: boolean };
    "quickMessage.deleted": { type: "quickMessage.deleted"; companyId: number; id: number; userId: number; geral: boolean };
  }
}

defineEvents({
  "quickMessage.created": baseEvent("quickMessage.created").extend({ record: QuickMessage }),
  "quickMessage.updated": baseEvent("quickMessage.updated").extend({ record: QuickMessage, wasGeral: z.boolean() }),
  "quickMessage.deleted": baseEvent("quickMessage.deleted").extend({ id: z.number().int(), userId: z.number().int(), geral: z.boolean() }),
});

defineFrames({ quickmessage: QuickMessageEvent });

/** Who may see a quick message: everyone for a `geral` one, else its owner and the editAny holders. */
const seers = (m: { geral: boolean; userId: number }): Audience =>
  m.geral ? { kind: "company" } : { kind: "permission", permission: "quick-messages:editAny", alsoUserId: m.userId };

realtimeFrames("quickMessage.created", (e) => [{ name: "quickmessage", data: { action: "create", record: e.record }, audience: seers(e.record) }]);
realtimeFrames("quickMessage.updated", (e) => [
  { name: "quickmessage", data: { action: "update", record: e.record }, audience: seers(e.record) },
  // Those who saw it while it was geral and may no longer see it drop it from their lists.
  ...(e.wasGeral && !e.record.geral
    ? [{ name: "quickmessage" as const, data: { action: "delete" as const, id: e.record.id }, audience: { kind: "permission" as const, permission: "quick-messages:editAny" as const, not: true, exceptUserId: e.record.userId } }]
    : []),
]);
realtimeFrames("quickMessage.deleted", (e) => [{ name: "quickmessage", data: { action: "delete", id: e.id }, audience: seers(e) }]);
