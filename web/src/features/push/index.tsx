/**
 * Push notifications on this device (docs/product/push.md): the top bar's opt-in popover for every signed-in user and
 * its texts. The service worker that shows the notifications is `web/public/service-worker.js`.
 */
import { lazyPart } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import "./push.css";
import { pushErrorTexts, pushTexts } from "./i18n.ts";

export const pushFeature: Feature = {
  id: "push",
  routes: [],
  texts: { push: pushTexts, errors: pushErrorTexts },
  slots: { topBar: [{ id: "push", order: 90, Component: lazyPart(() => import("./PushPopover.tsx"), "PushPopover") }] },
};
