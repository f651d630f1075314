/**
 * Company settings (no page in this build): the `company-{id}-settings` handler keeps the cached settings current
 * (viewclosed, viewgroups, ...); a changed key is applied in place, anything else refetches.
 */
import type { Feature } from "../types.ts";
import { settingsKeys, upsertSetting } from "./api.ts";

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

export const settingsFeature: Feature = {
  id: "settings",
  routes: [],
  realtime: {
    settings: (data, { queryClient }) => {
      const d = obj(data);
      const s = obj(d.setting);
      const key = typeof s.key === "string" ? s.key : typeof d.key === "string" ? d.key : undefined;
      const value = s.value ?? d.value;
      if (key && typeof value === "string") upsertSetting(queryClient, { key, value });
      else void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
  },
};
