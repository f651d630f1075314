/**
 * Scheduled messages data:
 * - `useSchedulePages(search)`: GET /api/schedules?searchParam&pageNumber → pages of `{schedules, count, hasMore}` (the list);
 * - `useAllSchedules()`: every schedule of the company, page after page (the calendar);
 * - `useContactSchedules(contactId)`: one contact's (the contact drawer);
 * - `scheduleCalls` (POST, PUT /{id}, DELETE /{id}) run by `useScheduleMutations()`, and the picture
 *   (`POST /api/schedules/{id}/media-upload` with one `file`, `DELETE .../media-upload`).
 * `schedulesCache` keeps them current for mutations and `company-{id}-schedule` frames.
 */
import { useQuery } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls, type EntityCache } from "../../ui/kit/crud.ts";

export type Schedule = ResponseOf<"GET /api/schedules/{id}">;
export type ScheduleForm = BodyOf<"POST /api/schedules">;

const pages = pagedCache<Schedule, "schedules">({
  root: "schedules",
  field: "schedules",
  matches: (s, q) => !q || `${s.body} ${s.contact?.name ?? ""}`.toLowerCase().includes(q.toLowerCase()),
});
const ALL_KEY = ["schedules", "all"] as const;
const contactKey = (contactId: number) => ["schedules", "contact", contactId] as const;
/** Most pages the calendar reads (20 each). */
const CALENDAR_MAX_PAGES = 50;

/** The list pages, the calendar and the drawer's lists. */
export const schedulesCache: EntityCache<Schedule> = {
  upsert(qc, item) {
    pages.upsert(qc, item);
    void qc.invalidateQueries({ queryKey: ALL_KEY });
    void qc.invalidateQueries({ queryKey: contactKey(item.contactId) });
  },
  remove(qc, id) {
    pages.remove(qc, id);
    void qc.invalidateQueries({ queryKey: ALL_KEY });
    void qc.invalidateQueries({ queryKey: ["schedules", "contact"] });
  },
  reload: (qc) => void qc.invalidateQueries({ queryKey: ["schedules"] }),
};

export const useSchedulePages = (search: string) => useNumberedPages(pages, search, (query) => call("GET /api/schedules", { query }));

async function allPages(query: { contactId?: number } = {}): Promise<Schedule[]> {
  const out: Schedule[] = [];
  for (let pageNumber = 1; pageNumber <= CALENDAR_MAX_PAGES; pageNumber++) {
    const page = await call("GET /api/schedules", { query: { ...query, pageNumber } });
    out.push(...page.schedules);
    if (!page.hasMore) break;
  }
  return out;
}

export const useAllSchedules = () => useQuery({ queryKey: ALL_KEY, queryFn: () => allPages() });

export const useContactSchedules = (contactId: number) => useQuery({ queryKey: contactKey(contactId), queryFn: () => allPages({ contactId }) });

export const scheduleCalls: CrudCalls<Schedule, ScheduleForm> = {
  create: (form) => call("POST /api/schedules", { body: form }),
  update: (id, form) => call("PUT /api/schedules/{id}", { params: { id }, body: { contactId: form.contactId, body: form.body, sendAt: form.sendAt } }),
  remove: (id) => call("DELETE /api/schedules/{id}", { params: { id } }),
};

export const useScheduleMutations = () => useCrudMutations(scheduleCalls, schedulesCache);

/** Uploads (replacing) the picture of a saved schedule. */
export function uploadSchedulePicture(id: number, file: File): Promise<Schedule> {
  const form = new FormData();
  form.append("file", file, file.name);
  return call("POST /api/schedules/{id}/media-upload", { params: { id }, form });
}

/** Removes the picture of a schedule. */
export const removeSchedulePicture = (id: number) => call("DELETE /api/schedules/{id}/media-upload", { params: { id } });
