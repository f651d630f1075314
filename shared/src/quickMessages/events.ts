/**
 * Quick messages' domain events, declared from the feature's own folder: `quickMessage.created|updated` carry the
 * quick message as the API answers it, `quickMessage.deleted` its id, owner and `geral`. The realtime frame is
 * `company-{id}-quickmessage` `{action: "create"|"update", record}` / `{action: "delete", id}`: a `geral` one goes to
 * the whole company, any other one only to its owner and to the holders of `quick-messages:editAny` (the users who
 * may see it).
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import type { Audience } from "../realtime/publish.ts";
import { QuickMessage, QuickMessageEvent } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "quickMessage.created": { type: "quickMessage.created"; companyId: number; record: QuickMessage };
    "quickMessage.updated": { type: "quickMessage.updated"; companyId: number; record: QuickMessage };
    "quickMessage.deleted": { type: "quickMessage.deleted"; companyId: number; id: number; userId: number; geral: boolean };
  }
}

defineEvents({
  "quickMessage.created": baseEvent("quickMessage.created").extend({ record: QuickMessage }),
  "quickMessage.updated": baseEvent("quickMessage.updated").extend({ record: QuickMessage }),
  "quickMessage.deleted": baseEvent("quickMessage.deleted").extend({ id: z.number().int(), userId: z.number().int(), geral: z.boolean() }),
});

defineFrames({ quickmessage: QuickMessageEvent });

/** Who may see a quick message: everyone for a `geral` one, else its owner and the editAny holders. */
const seers = (m: { geral: boolean; userId: number }): Audience =>
  m.geral ? { kind: "company" } : { kind: "permission", permission: "quick-messages:editAny", alsoUserId: m.userId };

realtimeFrames("quickMessage.created", (e) => [{ name: "quickmessage", data: { action: "create", record: e.record }, audience: seers(e.record) }]);
realtimeFrames("quickMessage.updated", (e) => [{ name: "quickmessage", data: { action: "update", record: e.record }, audience: seers(e.record) }]);
realtimeFrames("quickMessage.deleted", (e) => [{ name: "quickmessage", data: { action: "delete", id: e.id }, audience: seers(e) }]);
