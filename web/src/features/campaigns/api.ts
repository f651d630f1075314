/**
 * Campaigns data (docs/product/campaigns.md):
 * - `useCampaignPages(search)`: GET /api/campaigns?searchParam&pageNumber → pages of `{records, count, hasMore}`;
 * - `campaignCalls` (POST, PUT /{id}, DELETE /{id}) run by `useCampaignMutations()`, the media
 *   (`POST /api/campaigns/{id}/media-upload` with one `file`, `DELETE .../media-upload`), `cancelCampaign`,
 *   `restartCampaign`;
 * - `useCampaign(id)` and `useShippings(id)` (GET /api/campaigns/{id}/shippings, pages of 50) for the report;
 * - `useCampaignSettings()` and `saveCampaignSettings(settings)` (GET / POST /api/campaign-settings);
 * - `useConnectionOptions()`, `useTagOptions()` for the dialog's selects.
 * `campaignsCache` keeps the pages current for mutations and `company-{id}-campaign` frames; the report's campaign
 * query is updated by the same frames.
 */
import { useInfiniteQuery, useQuery, type QueryClient } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls, type EntityCache } from "../../ui/kit/crud.ts";

export type Campaign = ResponseOf<"GET /api/campaigns/{id}">;
export type CampaignForm = BodyOf<"POST /api/campaigns">;
export type CampaignSettings = ResponseOf<"GET /api/campaign-settings">;
export type Shipping = ResponseOf<"GET /api/campaigns/{id}/shippings">["records"][number];

const pages = pagedCache<Campaign, "records">({ root: "campaigns", field: "records", matches: (c, s) => !s || c.name.toLowerCase().includes(s.toLowerCase()) });
export const campaignKeys = {
  ...pages.keys,
  one: (id: number) => ["campaigns", "one", id] as const,
  shippings: (id: number) => ["campaigns", "shippings", id] as const,
  settings: ["campaigns", "settings"] as const,
};

/** The pages and the report's campaign. */
export const campaignsCache: EntityCache<Campaign> = {
  upsert(qc, item) {
    pages.upsert(qc, item);
    qc.setQueryData(campaignKeys.one(item.id), item);
  },
  remove(qc, id) {
    pages.remove(qc, id);
  },
  reload: (qc) => void qc.invalidateQueries({ queryKey: pages.keys.all }),
};

export const useCampaignPages = (search: string) => useNumberedPages(pages, search, (query) => call("GET /api/campaigns", { query }));

export const campaignCalls: CrudCalls<Campaign, CampaignForm> = {
  create: (form) => call("POST /api/campaigns", { body: form }),
  update: (id, form) => call("PUT /api/campaigns/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/campaigns/{id}", { params: { id } }),
};
export const useCampaignMutations = () => useCrudMutations(campaignCalls, campaignsCache);

export function uploadCampaignMedia(id: number, file: File): Promise<Campaign> {
  const form = new FormData();
  form.append("file", file, file.name);
  return call("POST /api/campaigns/{id}/media-upload", { params: { id }, form });
}
export const removeCampaignMedia = (id: number) => call("DELETE /api/campaigns/{id}/media-upload", { params: { id } });
export const cancelCampaign = (id: number) => call("POST /api/campaigns/{id}/cancel", { params: { id } });
export const restartCampaign = (id: number) => call("POST /api/campaigns/{id}/restart", { params: { id } });

export const useCampaign = (id: number) => useQuery({ queryKey: campaignKeys.one(id), queryFn: () => call("GET /api/campaigns/{id}", { params: { id } }) });

export function useShippings(id: number) {
  return useInfiniteQuery({
    queryKey: campaignKeys.shippings(id),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => call("GET /api/campaigns/{id}/shippings", { params: { id }, query: { pageNumber: pageParam } }),
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
  });
}

/** Refetches a report's rows (a campaign frame says its counts moved). */
export const refreshShippings = (qc: QueryClient, id: number) => void qc.invalidateQueries({ queryKey: campaignKeys.shippings(id) });

export const useCampaignSettings = () => useQuery({ queryKey: campaignKeys.settings, queryFn: () => call("GET /api/campaign-settings") });
export const saveCampaignSettings = (settings: CampaignSettings) => call("POST /api/campaign-settings", { body: { settings } });

export const useConnectionOptions = (enabled: boolean) => useQuery({ queryKey: ["campaigns", "whatsapps"], enabled, queryFn: () => call("GET /api/whatsapp", { query: { session: 0 } }) });
export const useTagOptions = (enabled: boolean) => useQuery({ queryKey: ["campaigns", "tags"], enabled, queryFn: () => call("GET /api/tags/list") });
