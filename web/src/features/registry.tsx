/**
 * THE list of feature areas. A feature is declared whole in its own `features/<area>/index.tsx` (routes, access,
 * menu entry, texts, realtime handlers, slots in other features' screens; see `types.ts`); adding one means one line
 * here. The router (`routes/index.tsx`), the side menu (`layout/AppShell.tsx`), i18next and the realtime table
 * (`realtime/handlers.ts`) read this list, and the screens' slots (`slots.ts`) are filled from it.
 */
import { registerTexts } from "../i18n/index.ts";
import type { RealtimeHandler } from "../realtime/handlers.ts";
import { connectionsFeature } from "./connections/index.tsx";
import { contactsFeature } from "./contacts/index.tsx";
import { jobsFeature } from "./jobs/index.tsx";
import { queuesFeature } from "./queues/index.tsx";
import { quickMessagesFeature } from "./quickMessages/index.tsx";
import { plansFeature } from "./plans/index.tsx";
import { sandboxFeature } from "./sandbox/index.tsx";
import { schedulesFeature } from "./schedules/index.tsx";
import { settingsFeature } from "./settings/index.tsx";
import { registerSlots } from "./slots.ts";
import { tagsFeature } from "./tags/index.tsx";
import { ticketsFeature } from "./tickets/index.tsx";
import type { Feature } from "./types.ts";
import { usersFeature } from "./users/index.tsx";

export const features: Feature[] = [
  queuesFeature,
  usersFeature,
  ticketsFeature,
  connectionsFeature,
  contactsFeature,
  tagsFeature,
  quickMessagesFeature,
  schedulesFeature,
  plansFeature,
  settingsFeature,
  jobsFeature,
  ...(sandboxFeature ? [sandboxFeature] : []),
];

registerSlots(features);
for (const f of features) for (const [ns, bundles] of Object.entries(f.texts ?? {})) registerTexts(ns, bundles);

/** The realtime handlers of every feature, by event name (`company-{id}-{name}`). */
export const featureHandlers: Record<string, RealtimeHandler[]> = {};
for (const f of features) {
  for (const [name, h] of Object.entries(f.realtime ?? {})) {
    featureHandlers[name] ??= [];
    featureHandlers[name].push(h);
  }
}
