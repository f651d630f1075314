/**
 * Announcements data (docs/product/announcements.md):
 * - `useAnnouncementPages(search)`: GET /api/announcements?searchParam&pageNumber → pages, highest priority and newest
 *   first (active ones only for users who are not super); the page and the top bar's popover share it;
 * - `announcementCalls` (POST, PUT /{id}, DELETE /{id}) and the image (`POST|DELETE /api/announcements/{id}/media-upload`);
 * - `useSeenAnnouncements()`: what this user has seen, kept in the browser per user (the popover's unread badge
 *   survives reloads).
 * `announcementsCache` keeps the pages current for mutations and `company-{id}-announcement` frames.
 */
import { useCallback, useSyncExternalStore } from "react";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls } from "../../ui/kit/crud.ts";

export type Announcement = ResponseOf<"GET /api/announcements/{id}">;
export type AnnouncementForm = BodyOf<"POST /api/announcements">;

export const announcementsCache = pagedCache<Announcement, "records">({
  root: "announcements",
  field: "records",
  matches: (a, s) => !s || `${a.title} ${a.text}`.toLowerCase().includes(s.toLowerCase()),
});

export const useAnnouncementPages = (search: string) => useNumberedPages(announcementsCache, search, (query) => call("GET /api/announcements", { query }));

export const announcementCalls: CrudCalls<Announcement, AnnouncementForm> = {
  create: (form) => call("POST /api/announcements", { body: form }),
  update: (id, form) => call("PUT /api/announcements/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/announcements/{id}", { params: { id } }),
};

export const useAnnouncementMutations = () => useCrudMutations(announcementCalls, announcementsCache);

/** Uploads (replacing) the image of a saved announcement. */
export function uploadAnnouncementMedia(id: number, file: File): Promise<Announcement> {
  const form = new FormData();
  form.append("file", file, file.name);
  return call("POST /api/announcements/{id}/media-upload", { params: { id }, form });
}

/** Removes the image of an announcement. */
export const removeAnnouncementMedia = (id: number) => call("DELETE /api/announcements/{id}/media-upload", { params: { id } });

/** Highest priority first (1 high, 3 low), then newest. */
export const byPriority = (a: Announcement, b: Announcement) => a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

/** The colour of a priority: 1 red, 2 orange, 3 grey. */
export const PRIORITY_COLORS: Record<number, string> = { 1: "#d32f2f", 2: "#ed6c02", 3: "#757575" };

const seenKey = (userId: number) => `announcements.seen.${userId}`;
const listeners = new Set<() => void>();
const subscribe = (fn: () => void) => {
  listeners.add(fn);
  const onStorage = (e: StorageEvent) => e.key?.startsWith("announcements.seen.") && fn();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(fn);
    window.removeEventListener("storage", onStorage);
  };
};

/**
 * The announcements this user has seen (`"<id>@<updatedAt>"`, so a changed one is unread again), kept in
 * localStorage per user (survives reloads; other tabs follow), and `markSeen(list)` for what the popover showed.
 */
export function useSeenAnnouncements(userId: number) {
  const raw = useSyncExternalStore(subscribe, () => localStorage.getItem(seenKey(userId)) ?? "[]");
  const seen = new Set<string>((() => {
    try {
      const v = JSON.parse(raw);
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
    } catch {
      return [];
    }
  })());
  const markSeen = useCallback(
    (list: Announcement[]) => {
      localStorage.setItem(seenKey(userId), JSON.stringify(list.map(seenId)));
      for (const fn of listeners) fn();
    },
    [userId],
  );
  return { isSeen: (a: Announcement) => seen.has(seenId(a)), markSeen };
}
const seenId = (a: Announcement) => `${a.id}@${a.updatedAt}`;
