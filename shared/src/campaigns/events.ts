/**
 * Campaigns' domain events, declared from the feature's own folder: `campaign.created|updated` carry the campaign as
 * the API answers it (each status move and each count change of a running campaign is an update), `campaign.deleted`
 * its id. The realtime frame is `company-{id}-campaign` `{action: "create"|"update", record}` / `{action: "delete",
 * id}`, to the company's admins (the only ones who see campaigns).
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import type { Audience } from "../realtime/publish.ts";
import { ReplyWait } from "../contacts/schema.ts";
import { Campaign, CampaignFrame } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "campaign.created": { type: "campaign.created"; companyId: number; record: Campaign };
    "campaign.updated": { type: "campaign.updated"; companyId: number; record: Campaign };
    "campaign.deleted": { type: "campaign.deleted"; companyId: number; id: number };
    "campaign.replied": CampaignReplied;
  }
}

/**
 * A customer's message answered a campaign's wait (`wait`): stored by the ingest in the same transaction as the
 * durable `campaigns.replies` listener's pending run, so the confirmation (or the close) is applied even when the
 * process dies right after the message was stored. `at`: ISO time of the store.
 */
export interface CampaignReplied {
  type: "campaign.replied";
  companyId: number;
  whatsappId: number;
  contactId: number;
  ticketId: number;
  messageId: string;
  wait: ReplyWait;
  at: string;
}

defineEvents({
  "campaign.created": baseEvent("campaign.created").extend({ record: Campaign }),
  "campaign.updated": baseEvent("campaign.updated").extend({ record: Campaign }),
  "campaign.deleted": baseEvent("campaign.deleted").extend({ id: z.number().int() }),
  "campaign.replied": baseEvent("campaign.replied").extend({
    whatsappId: z.number().int(),
    contactId: z.number().int(),
    ticketId: z.number().int(),
    messageId: z.string(),
    wait: ReplyWait,
    at: z.string(),
  }),
});

defineFrames({ campaign: CampaignFrame });

const admins: Audience = { kind: "permission", permission: "routes:admin" };

realtimeFrames("campaign.created", (e) => [{ name: "campaign", data: { action: "create", record: e.record }, audience: admins }]);
realtimeFrames("campaign.updated", (e) => [{ name: "campaign", data: { action: "update", record: e.record }, audience: admins }]);
realtimeFrames("campaign.deleted", (e) => [{ name: "campaign", data: { action: "delete", id: e.id }, audience: admins }]);
