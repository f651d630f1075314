/**
 * Queue integrations data (docs/product/integrations.md):
 * - `useIntegrationPages(search)`: GET /api/queueIntegration?searchParam&pageNumber → pages of `{queueIntegrations, count, hasMore}`;
 * - `useIntegrationChoices(enabled)`: every integration of the company (the queue and connection dialogs' selects);
 * - `integrationCalls` (POST, PUT /{id}, DELETE /{id}) run by `useIntegrationMutations()`;
 * - `testDialogflowSession(body)`: POST /api/queueIntegration/testSession.
 * `integrationsCache` keeps pages and choices current for mutations and `company-{id}-queueIntegration` frames.
 */
import { useQuery } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls } from "../../ui/kit/crud.ts";

export type Integration = ResponseOf<"GET /api/queueIntegration/{id}">;
export type IntegrationForm = BodyOf<"POST /api/queueIntegration">;

export const integrationsCache = pagedCache<Integration, "queueIntegrations">({
  root: "queueIntegrations",
  field: "queueIntegrations",
  matches: (i, s) => !s || i.name.toLowerCase().includes(s.toLowerCase()),
  withList: true,
});

export const useIntegrationPages = (search: string) => useNumberedPages(integrationsCache, search, (query) => call("GET /api/queueIntegration", { query }));

/** Every integration of the company, by name (all pages), for the selects; off while `enabled` is false. */
export function useIntegrationChoices(enabled: boolean) {
  return useQuery({
    queryKey: integrationsCache.keys.list,
    enabled,
    staleTime: 60_000,
    queryFn: async () => {
      const all: Integration[] = [];
      for (let pageNumber = 1; pageNumber <= 50; pageNumber++) {
        const page = await call("GET /api/queueIntegration", { query: { pageNumber } });
        all.push(...page.queueIntegrations);
        if (!page.hasMore) break;
      }
      return all;
    },
  });
}

export const integrationCalls: CrudCalls<Integration, IntegrationForm> = {
  create: (form) => call("POST /api/queueIntegration", { body: form }),
  update: (id, form) => call("PUT /api/queueIntegration/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/queueIntegration/{id}", { params: { id } }),
};

export const useIntegrationMutations = () => useCrudMutations(integrationCalls, integrationsCache);

/** Checks Dialogflow credentials with one detect intent; answers the agent's replies. */
export const testDialogflowSession = (body: BodyOf<"POST /api/queueIntegration/testSession">) => call("POST /api/queueIntegration/testSession", { body });

/** `company-{id}-queueIntegration`: create/update upsert, delete removes by `integrationId`. */
export const onIntegrationFrame: RealtimeHandler<"queueIntegration"> = (data, { queryClient }) => {
  if (data.action === "delete") integrationsCache.remove(queryClient, data.integrationId);
  else integrationsCache.upsert(queryClient, data.queueIntegration);
};
