/**
 * Company settings (`GET /api/settings` → `[{key, value}]`), cached once and kept live by the realtime table
 * (`company-{id}-settings`). `useSetting(key)` returns one value (e.g. viewclosed, viewgroups → "enabled");
 * `useUpdateSetting()` saves one; `useCompany` / `useSaveCompanySchedules` read and save the company's hours.
 */
import type { VisibilitySettings } from "@atende/shared/access/tickets";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { SettingKey } from "@atende/shared/settings/schema";
import { call, type ResponseOf } from "../../api/operations.ts";
import type { Schedule } from "../queues/types.ts";

export type Setting = ResponseOf<"GET /api/settings">[number];
export const settingsKeys = { all: ["settings"] as const };

export function useSettings() {
  return useQuery({ queryKey: settingsKeys.all, queryFn: () => call("GET /api/settings") });
}

export function useSetting(key: string): string | undefined {
  return useSettings().data?.find((s) => s.key === key)?.value;
}

/** Applies one changed setting to the cache. */
export function upsertSetting(qc: QueryClient, s: Setting): void {
  qc.setQueryData<Setting[]>(settingsKeys.all, (xs) => (xs ? (xs.some((x) => x.key === s.key) ? xs.map((x) => (x.key === s.key ? s : x)) : [...xs, s]) : xs));
}

/**
 * The company's ticket visibility settings from the cache (viewclosed, viewgroups), for `canSee` outside React (the
 * realtime handlers). Settings not loaded yet count as disabled: the stricter answer.
 */
export function visibilityOf(qc: QueryClient): VisibilitySettings {
  const xs = qc.getQueryData<Setting[]>(settingsKeys.all) ?? [];
  const value = (key: string) => xs.find((s) => s.key === key)?.value ?? "disabled";
  return { viewclosed: value("viewclosed"), viewgroups: value("viewgroups") };
}

/** `PUT /api/settings/{key}`: saves one option; the answer is applied to the cache at once. */
export function useUpdateSetting() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: string }) => call("PUT /api/settings/{key}", { params: { key }, body: { value } }),
    onSuccess: (s) => upsertSetting(qc, s),
  });
}

/** The caller's company (its weekly hours and time zone), from `GET /api/companies/listPlan/{companyId}`. */
export function useCompany(companyId: number | undefined) {
  return useQuery({
    queryKey: ["company", companyId],
    queryFn: () => call("GET /api/companies/listPlan/{companyId}", { params: { companyId: companyId! } }),
    enabled: companyId !== undefined,
  });
}

/** `PUT /api/companies/{id}/schedules`: the company's weekly hours and time zone. */
export function useSaveCompanySchedules(companyId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { schedules: Schedule[]; timezone: string }) => call("PUT /api/companies/{id}/schedules", { params: { id: companyId }, body: { id: companyId, ...body } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["company", companyId] }),
  });
}
