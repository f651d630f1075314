/**
 * Quick messages area (an attendance item of the side menu, for every user): /quick-messages, its menu entry, texts, the `company-{id}-quickmessage` frames (`{action, record}` or
 * `{action: "delete", id}`), and, through the composer's "/" slot, the quick messages offered while typing.
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage } from "../lazy.tsx";
import { type Feature, onePage } from "../types.ts";
import { quickMessagesCache, type QuickMessage } from "./api.ts";
import { quickMessagesMenuTexts, quickMessagesTexts } from "./i18n.ts";
import { quickMessageShortcuts } from "./shortcuts.ts";

const QuickMessagesPage = lazyPage(() => import("./QuickMessagesPage.tsx"), "QuickMessagesPage");

const onFrame: RealtimeHandler = (data, { queryClient }) => {
  const d = (data ?? {}) as { action?: string; record?: QuickMessage; id?: number };
  if (d.action === "delete" && typeof d.id === "number") quickMessagesCache.remove(queryClient, d.id);
  else if ((d.action === "create" || d.action === "update") && d.record && typeof d.record.id === "number") quickMessagesCache.upsert(queryClient, d.record);
  else quickMessagesCache.reload(queryClient);
};

export const quickMessagesFeature: Feature = {
  ...onePage("quick-messages", <QuickMessagesPage />, "attendance", 20),
  texts: { quickMessages: quickMessagesTexts, menu: quickMessagesMenuTexts },
  realtime: { quickmessage: onFrame },
  slots: { composerShortcuts: [quickMessageShortcuts] },
};
