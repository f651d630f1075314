/**
 * Personal data (docs/product/personal-data.md): no page of its own; through the contact drawer's slot, admins export
 * or erase everything stored about the conversation's contact.
 */
import { lazyPart } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { privacyTexts } from "./i18n.ts";

export const privacyFeature: Feature = {
  id: "privacy",
  routes: [],
  texts: { privacy: privacyTexts },
  slots: {
    contactDrawer: [
      { id: "personal-data", order: 90, access: { permission: "personal-data:manage" }, Component: lazyPart(() => import("./PersonalDataSection.tsx"), "PersonalDataSection") },
    ],
  },
};
