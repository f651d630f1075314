/**
 * Company settings (`GET /api/settings` → `[{key, value}]`), cached once and kept live by the realtime table
 * (`company-{id}-settings`). `useSetting(key)` returns one value (e.g. viewclosed, viewgroups → "enabled").
 */
import type { VisibilitySettings } from "@atende/shared/access/tickets";
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";

export interface Setting {
  key: string;
  value: string;
}
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
