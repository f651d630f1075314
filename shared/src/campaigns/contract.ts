/**
 * Campaigns operations (docs/product/campaigns.md): the company's admins only (`admin` level), behind the plan flag
 * `useCampaigns` (403 `ERR_PLAN_FEATURE_DISABLED` for a company whose plan has it off). Another company's campaign
 * is 404 `ERR_NO_CAMPAIGN_FOUND`.
 *
 * Status moves: `cancel` only while EM_ANDAMENTO (409 `ERR_CAMPAIGN_NOT_RUNNING`), `restart` only while CANCELADA
 * (409 `ERR_CAMPAIGN_NOT_CANCELED`); `PUT` only while editable or CANCELADA (409 `ERR_CAMPAIGN_NOT_EDITABLE`).
 * Media: `POST /api/campaigns/{id}/media-upload` is `multipart/form-data` with one file in `file`; it replaces any
 * earlier file. The report's rows: `GET /api/campaigns/{id}/shippings` (pageNumber).
 */
import { defineRoutes } from "../contract.ts";
import {
  Campaign,
  CampaignDeleted,
  CampaignIdParams,
  CampaignSettings,
  CampaignsPage,
  CreateCampaignBody,
  ListCampaignsQuery,
  SaveCampaignSettingsBody,
  ShippingsPage,
  ShippingsQuery,
  UpdateCampaignBody,
} from "./schema.ts";

const plan = "useCampaigns" as const;

export const campaignsRoutes = defineRoutes("campaigns", {
  "GET /api/campaigns": { auth: "admin", plan, query: ListCampaignsQuery, response: CampaignsPage },
  "GET /api/campaigns/{id}": { auth: "admin", plan, params: CampaignIdParams, response: Campaign },
  "GET /api/campaigns/{id}/shippings": { auth: "admin", plan, params: CampaignIdParams, query: ShippingsQuery, response: ShippingsPage },
  "POST /api/campaigns": { auth: "admin", plan, body: CreateCampaignBody, response: Campaign },
  "PUT /api/campaigns/{id}": { auth: "admin", plan, params: CampaignIdParams, body: UpdateCampaignBody, response: Campaign },
  "DELETE /api/campaigns/{id}": { auth: "admin", plan, params: CampaignIdParams, response: CampaignDeleted },
  /** Multipart: one file in `file`. Answers the campaign with its new media. */
  "POST /api/campaigns/{id}/media-upload": { auth: "admin", plan, params: CampaignIdParams, multipart: true, response: Campaign },
  "DELETE /api/campaigns/{id}/media-upload": { auth: "admin", plan, params: CampaignIdParams, response: Campaign },
  "POST /api/campaigns/{id}/cancel": { auth: "admin", plan, params: CampaignIdParams, response: Campaign },
  "POST /api/campaigns/{id}/restart": { auth: "admin", plan, params: CampaignIdParams, response: Campaign },
  "GET /api/campaign-settings": { auth: "admin", plan, response: CampaignSettings },
  "POST /api/campaign-settings": { auth: "admin", plan, body: SaveCampaignSettingsBody, response: CampaignSettings },
});
