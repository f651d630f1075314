/**
 * Help videos data:
 * - `useHelps()`: GET /api/helps/list → every help, by title (the same platform-wide list for every company);
 * - `helpCalls` (POST, PUT /{id}, DELETE /{id}, super users only) run by `useHelpMutations()`, which keep the list
 *   current in this tab (helps send no realtime frame: another tab sees a change when it refetches).
 * `thumbnailUrl` / `embedUrl`: the YouTube thumbnail and player of a video code.
 */
import { useQuery } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { arrayCache, useCrudMutations, type CrudCalls } from "../../ui/kit/crud.ts";

export type Help = ResponseOf<"POST /api/helps">;
export type HelpForm = BodyOf<"POST /api/helps">;

const byTitle = (a: Help, b: Help) => a.title.localeCompare(b.title, "pt", { sensitivity: "base" }) || a.id - b.id;
export const helpsCache = arrayCache<Help>({ key: ["helps", "list"], sort: byTitle });

export const useHelps = () => useQuery({ queryKey: helpsCache.key, queryFn: () => call("GET /api/helps/list") });

export const helpCalls: CrudCalls<Help, HelpForm> = {
  create: (form) => call("POST /api/helps", { body: form }),
  update: (id, form) => call("PUT /api/helps/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/helps/{id}", { params: { id } }),
};

export const useHelpMutations = () => useCrudMutations(helpCalls, helpsCache);

/** The YouTube thumbnail of a video code (320×180 `mqdefault`). */
export const thumbnailUrl = (video: string) => `https://img.youtube.com/vi/${encodeURIComponent(video)}/mqdefault.jpg`;
/** The YouTube player of a video code, starting at once. */
export const embedUrl = (video: string) => `https://www.youtube.com/embed/${encodeURIComponent(video)}?autoplay=1&rel=0`;
