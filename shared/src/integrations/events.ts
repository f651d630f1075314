/**
 * Queue integrations' domain events: `queueIntegration.created|updated` carry the integration as the API answers
 * it, `queueIntegration.deleted` its id. The realtime frame `company-{id}-queueIntegration` goes to the company's
 * admins only (it carries credentials).
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { IntegrationFrame, QueueIntegration } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "queueIntegration.created": { type: "queueIntegration.created"; companyId: number; record: QueueIntegration };
    "queueIntegration.updated": { type: "queueIntegration.updated"; companyId: number; record: QueueIntegration };
    "queueIntegration.deleted": { type: "queueIntegration.deleted"; companyId: number; id: number };
  }
}

defineEvents({
  "queueIntegration.created": baseEvent("queueIntegration.created").extend({ record: QueueIntegration }),
  "queueIntegration.updated": baseEvent("queueIntegration.updated").extend({ record: QueueIntegration }),
  "queueIntegration.deleted": baseEvent("queueIntegration.deleted").extend({ id: z.number().int() }),
});

defineFrames({ queueIntegration: IntegrationFrame });

realtimeFrames("queueIntegration.created", (e) => [{ name: "queueIntegration", data: { action: "create", queueIntegration: e.record }, audience: { kind: "admins" } }]);
realtimeFrames("queueIntegration.updated", (e) => [{ name: "queueIntegration", data: { action: "update", queueIntegration: e.record }, audience: { kind: "admins" } }]);
realtimeFrames("queueIntegration.deleted", (e) => [{ name: "queueIntegration", data: { action: "delete", integrationId: e.id }, audience: { kind: "admins" } }]);
