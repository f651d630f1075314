/**
 * THE list of feature areas. A feature is declared whole in its own `features/<area>/index.tsx` (routes, access,
 * menu entry, texts, realtime handlers, slots in other features' screens; see `types.ts`); adding one means one line
 * here. The router (`routes/index.tsx`), the side menu (`layout/AppShell.tsx`), i18next and the realtime table
 * (`realtime/handlers.ts`) read this list, and the screens' slots (`slots.ts`) are filled from it.
 */
import { registerTexts } from "../i18n/index.ts";
import type { FrameName } from "@atende/shared/events/frame-map";
import type { AnyRealtimeHandler } from "../realtime/handlers.ts";
import { announcementsFeature } from "./announcements/index.tsx";
import { pushFeature } from "./push/index.tsx";
import { campaignsFeature } from "./campaigns/index.tsx";
import { accountFeature } from "./signup/index.tsx";
import { companiesFeature } from "./companies/index.tsx";
import { logosFeature } from "./logos/index.tsx";
import { chatsFeature } from "./chats/index.tsx";
import { connectionsFeature } from "./connections/index.tsx";
import { contactsFeature } from "./contacts/index.tsx";
import { contactListsFeature } from "./contactLists/index.tsx";
import { fileListsFeature } from "./fileLists/index.tsx";
import { helpsFeature } from "./helps/index.tsx";
import { invoicesFeature } from "./invoices/index.tsx";
import { dashboardFeature } from "./dashboard/index.tsx";
import { jobsFeature } from "./jobs/index.tsx";
import { kanbanFeature } from "./kanban/index.tsx";
import { messagesApiFeature } from "./messagesApi/index.tsx";
import { privacyFeature } from "./privacy/index.tsx";
import { queuesFeature } from "./queues/index.tsx";
import { queueIntegrationsFeature } from "./queueIntegrations/index.tsx";
import { quickMessagesFeature } from "./quickMessages/index.tsx";
import { plansFeature } from "./plans/index.tsx";
import { promptsFeature } from "./prompts/index.tsx";
import { platformFeature } from "./platform/index.tsx";
import { sandboxFeature } from "./sandbox/index.tsx";
import { schedulesFeature } from "./schedules/index.tsx";
import { settingsFeature } from "./settings/index.tsx";
import { registerSlots } from "./slots.ts";
import { reportsFeature } from "./reports/index.tsx";
import { tagsFeature } from "./tags/index.tsx";
import { ticketsFeature } from "./tickets/index.tsx";
import { todoFeature } from "./todo/index.tsx";
import type { Feature } from "./types.ts";
import { usersFeature } from "./users/index.tsx";
import { webhooksFeature } from "./webhooks/index.tsx";

export const features: Feature[] = [
  dashboardFeature,
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
  kanbanFeature,
  chatsFeature,
  announcementsFeature,
  pushFeature,
  todoFeature,
  helpsFeature,
  accountFeature,
  companiesFeature,
  logosFeature,
  promptsFeature,
  invoicesFeature,
  platformFeature,
  webhooksFeature,
  contactListsFeature,
  fileListsFeature,
  campaignsFeature,
  messagesApiFeature,
  privacyFeature,
  reportsFeature,
  queueIntegrationsFeature,
  ...(sandboxFeature ? [sandboxFeature] : []),
];

registerSlots(features);
for (const f of features) for (const [ns, bundles] of Object.entries(f.texts ?? {})) registerTexts(ns, bundles);

/** The realtime handlers of every feature, by frame name (`company-{id}-{name}`; each typed by name in its feature). */
export const featureHandlers: { [N in FrameName]?: AnyRealtimeHandler[] } = {};
for (const f of features) {
  for (const [name, h] of Object.entries(f.realtime ?? {}) as [FrameName, AnyRealtimeHandler][]) {
    featureHandlers[name] ??= [];
    featureHandlers[name].push(h);
  }
}
