/**
 * Tags area (docs/product/tags.md; the side menu's tags is an attendance item for every user):
 * /tags, its menu entry, texts and the `company-{id}-tag` frames (pages, the tag list the pickers use, and the tags
 * that loaded tickets carry); in the tickets screen, through the slots, the ticket's tags in the conversation header
 * and the tag filter of the ticket list's search tab.
 */
import { crudRealtime } from "../../ui/kit/crud.ts";
import { lazyPage, lazyPart } from "../lazy.tsx";
import { type Feature, ticketListFilter } from "../types.ts";
import { tagsCache } from "./api.ts";
import { tagsErrorTexts, tagsMenuTexts, tagsTexts } from "./i18n.ts";
import { tagOnTickets } from "./ticketCache.ts";

const tagFrame = crudRealtime("tag", tagsCache);
const TagsPage = lazyPage(() => import("./TagsPage.tsx"), "TagsPage");
const loadTicketTags = () => import("./TicketTags.tsx");

export const tagsFeature: Feature = {
  id: "tags",
  routes: [{ path: "/tags", element: <TagsPage /> }],
  menu: { path: "/tags", labelKey: "menu.tags", group: "attendance", order: 70 },
  texts: { tags: tagsTexts, menu: tagsMenuTexts, errors: tagsErrorTexts },
  slots: {
    conversationHeader: [{ id: "tags", order: 10, Component: lazyPart(loadTicketTags, "TicketTags") }],
    ticketListFilters: [
      ticketListFilter<number[]>({
        id: "tags",
        order: 10,
        initial: [],
        Component: lazyPart(loadTicketTags, "TagFilter"),
        query: (ids) => (ids.length ? { tags: [...ids].sort((a, b) => a - b) } : {}),
        active: (ids) => ids.length > 0,
      }),
    ],
  },
  realtime: {
    tag: (data, ctx) => {
      tagFrame(data, ctx);
      tagOnTickets(data, ctx);
    },
  },
};
