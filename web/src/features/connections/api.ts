/**
 * Connections data (docs/product/connections.md; the `/whatsapp` calls):
 * `useWhatsapps()` (GET /api/whatsapp → array), `useWhatsappMutations()` (POST/PUT/DELETE through the kit), and the session
 * calls `sessionActions` (restart all, start, new QR, disconnect). The cache follows `company-{id}-whatsapp` and
 * `company-{id}-whatsappSession` through `upsertWhatsapp`/`removeWhatsapp` (stale updates dropped by `updatedAt`).
 */
import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { WhatsappView } from "@atende/shared/whatsapp/schema";
import { call } from "../../api/operations.ts";
import { useCrudMutations, type CrudCalls, type EntityCache } from "../../ui/kit/crud.ts";

export type Whatsapp = WhatsappView;

/** Statuses that raise the side menu's warning badge (docs/product/connections.md#session-status). */
export const WARNING_STATUSES = ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"];

export const whatsappKeys = { all: ["whatsapps"] as const };

export function useWhatsapps(enabled = true) {
  return useQuery({ queryKey: whatsappKeys.all, queryFn: () => call("GET /api/whatsapp", { query: { session: 0 } }), enabled });
}

/** Inserts or replaces a connection in the cache; drops an update older than the cached one. */
export function upsertWhatsapp(qc: QueryClient, w: Partial<Whatsapp> & { id: number }): void {
  qc.setQueryData<Whatsapp[]>(whatsappKeys.all, (xs) => {
    if (!xs) return xs;
    const cur = xs.find((x) => x.id === w.id);
    if (cur && w.updatedAt && cur.updatedAt && w.updatedAt < cur.updatedAt) return xs;
    if (cur) return xs.map((x) => (x.id === w.id ? { ...x, ...w } : x));
    return "name" in w ? [...xs, w as Whatsapp] : xs;
  });
}

export function removeWhatsapp(qc: QueryClient, id: number): void {
  qc.setQueryData<Whatsapp[]>(whatsappKeys.all, (xs) => xs?.filter((x) => x.id !== id));
}

/** The add/edit form body (docs/product/connections.md#fields). */
export interface WhatsappForm {
  name: string;
  isDefault: boolean;
  queueIds: number[];
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  token: string;
  provider: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeToTransfer: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  /** Minutes a resolved ticket waits for the customer's rating before it closes without one (docs/product/ratings.md). */
  ratingWaitMinutes: number;
  transferQueueId: number | null;
}

export const whatsappCalls: CrudCalls<Whatsapp, WhatsappForm> = {
  create: (form) => call("POST /api/whatsapp", { body: form }),
  update: (id, form) => call("PUT /api/whatsapp/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/whatsapp/{id}", { params: { id } }),
};

/** The connections list as the kit sees it (partial session updates merge, never insert). */
export const whatsappCache: EntityCache<Whatsapp> = {
  upsert: upsertWhatsapp,
  remove: removeWhatsapp,
  reload: (qc) => void qc.invalidateQueries({ queryKey: whatsappKeys.all }),
};

/** Save and delete; a save refetches too, since making one connection the default changes the others. */
export const useWhatsappMutations = () => useCrudMutations(whatsappCalls, whatsappCache, { reloadAfterSave: true });

/** Session calls (admin): restart every connection, start one (try again), new QR, disconnect. */
export const sessionActions = {
  restartAll: () => call("POST /api/whatsapp-restart"),
  start: (id: number) => call("POST /api/whatsappsession/{id}", { params: { id } }),
  newQr: (id: number) => call("PUT /api/whatsappsession/{id}", { params: { id } }),
  disconnect: (id: number) => call("DELETE /api/whatsappsession/{id}", { params: { id } }),
};
