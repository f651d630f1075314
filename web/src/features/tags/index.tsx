/**
 * Tags area (docs/product/tags.md; the side menu's tags is an attendance item for every user):
 * /tags, its menu entry, texts and the `company-{id}-tag` frames (pages, the tag list the pickers use, and the tags
 * that loaded tickets carry).
 */
import { crudRealtime } from "../../ui/kit/crud.ts";
import { lazyPage } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { tagsCache } from "./api.ts";
import { tagsMenuTexts, tagsTexts } from "./i18n.ts";
import { tagOnTickets } from "./ticketCache.ts";

const tagFrame = crudRealtime("tag", tagsCache);
const TagsPage = lazyPage(() => import("./TagsPage.tsx"), "TagsPage");

export const tagsFeature: Feature = {
  id: "tags",
  routes: [{ path: "/tags", element: <TagsPage /> }],
  menu: { path: "/tags", labelKey: "menu.tags", group: "attendance", order: 70 },
  texts: { tags: tagsTexts, menu: tagsMenuTexts },
  realtime: {
    tag: (data, ctx) => {
      tagFrame(data, ctx);
      tagOnTickets(data, ctx);
    },
  },
};
