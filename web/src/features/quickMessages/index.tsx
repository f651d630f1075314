/**
 * Quick messages area (an attendance item of the side menu, for every user): /quick-messages, its menu entry, texts, the `company-{id}-quickmessage` frames (`{action, record}` or
 * `{action: "delete", id}`), and, through the composer's "/" slot, the quick messages offered while typing.
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage } from "../lazy.tsx";
import { type Feature, onePage } from "../types.ts";
import { quickMessagesCache } from "./api.ts";
import { quickMessagesMenuTexts, quickMessagesTexts } from "./i18n.ts";
import { quickMessageShortcuts } from "./shortcuts.ts";

const QuickMessagesPage = lazyPage(() => import("./QuickMessagesPage.tsx"), "QuickMessagesPage");

const onFrame: RealtimeHandler<"quickmessage"> = (data, { queryClient }) => {
  if (data.action === "delete") quickMessagesCache.remove(queryClient, data.id);
  else quickMessagesCache.upsert(queryClient, data.record);
};

export const quickMessagesFeature: Feature = {
  ...onePage("quick-messages", <QuickMessagesPage />, "attendance", 20),
  texts: { quickMessages: quickMessagesTexts, menu: quickMessagesMenuTexts },
  realtime: { quickmessage: onFrame },
  slots: { composerShortcuts: [quickMessageShortcuts] },
};
