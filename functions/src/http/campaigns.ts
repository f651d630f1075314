/**
 * Campaigns area. Thin: call the campaigns service; the rules are there. Contract: `shared/src/campaigns/contract.ts`.
 * Sending is the campaign's timer (minute tick) and the dispatch queue (`../jobs/dispatch.ts`).
 */
import {
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  deleteCampaignMedia,
  listCampaignsFor,
  listShippings,
  restartCampaign,
  saveSettings,
  showCampaign,
  showCampaignSettings,
  updateCampaign,
  uploadCampaignMedia,
} from "@atende/shared/campaigns/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("campaigns", {
  "GET /api/campaigns": async (ctx) => listCampaignsFor(ctx.auth, ctx.query),
  "GET /api/campaigns/{id}": async (ctx) => showCampaign(ctx.auth, ctx.params.id),
  "GET /api/campaigns/{id}/shippings": async (ctx) => listShippings(ctx.auth, ctx.params.id, ctx.query.pageNumber),
  "POST /api/campaigns": async (ctx) => createCampaign(ctx.auth, ctx.body),
  "PUT /api/campaigns/{id}": async (ctx) => updateCampaign(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/campaigns/{id}": answering("Campaign deleted", (ctx) => deleteCampaign(ctx.auth, ctx.params.id)),
  "POST /api/campaigns/{id}/media-upload": async (ctx) => uploadCampaignMedia(ctx.auth, ctx.params.id, ctx.upload),
  "DELETE /api/campaigns/{id}/media-upload": async (ctx) => deleteCampaignMedia(ctx.auth, ctx.params.id),
  "POST /api/campaigns/{id}/cancel": async (ctx) => cancelCampaign(ctx.auth, ctx.params.id),
  "POST /api/campaigns/{id}/restart": async (ctx) => restartCampaign(ctx.auth, ctx.params.id),
  "GET /api/campaign-settings": async (ctx) => showCampaignSettings(ctx.auth),
  "POST /api/campaign-settings": async (ctx) => saveSettings(ctx.auth, ctx.body.settings),
});
