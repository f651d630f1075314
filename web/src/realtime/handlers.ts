/**
 * THE table mapping realtime event names to react-query cache updates (DESIGN.md §8, Chatwoot style).
 * A frame `{"event":"company-{id}-{name}","data":...}` runs `realtimeHandlers[name](data, ctx)`.
 *
 * To extend (tickets, appMessage, contact, whatsapp, whatsappSession, presence, chat, ...): add one entry here whose
 * function calls the feature's cache helpers (`features/<area>/cache.ts`). Unknown names are ignored.
 */
import type { QueryClient } from "@tanstack/react-query";
import { tokenVersionOf, updateSessionUser, type Session } from "../api/session.ts";
import { removeQueue, upsertQueue } from "../features/queues/cache.ts";
import type { Queue } from "../features/queues/types.ts";
import { upsertSetting, settingsKeys } from "../features/settings/api.ts";
import { attendanceHandlers } from "../features/tickets/realtime.ts";
import { removeUser, upsertUser } from "../features/users/cache.ts";
import type { User } from "../features/users/types.ts";

export interface RealtimeContext {
  queryClient: QueryClient;
  /** The session at the time the frame arrived. */
  session: Session;
  /** Shows 'Sua conta foi acessada em outro computador.' and clears the session after 1 s (single login). */
  endSessionElsewhere: () => void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RealtimeHandler = (data: any, ctx: RealtimeContext) => void;

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

export const realtimeHandlers: Record<string, RealtimeHandler> = {
  /** Single login: another login of this user bumped its token version (attendance.md §4 Session). */
  auth: (data, { session, endSessionElsewhere }) => {
    const d = obj(data);
    const userId = Number(obj(d.user).id ?? d.userId);
    const tv = Number(d.tokenVersion);
    if (d.action === "update" && userId === session.user.id && Number.isFinite(tv) && tv > tokenVersionOf(session.token)) endSessionElsewhere();
  },

  user: (data, { queryClient, session }) => {
    const d = obj(data);
    if (d.action === "delete") {
      removeUser(queryClient, Number(d.userId ?? obj(d.user).id));
      return;
    }
    const user = d.user as User | undefined;
    if (!user || typeof user.id !== "number") return;
    upsertUser(queryClient, user);
    if (user.id === session.user.id) {
      const { company: _c, ...rest } = user as User & { company?: unknown };
      updateSessionUser({ ...session.user, ...rest, queues: user.queues ?? session.user.queues } as Session["user"]);
    }
  },

  queue: (data, { queryClient }) => {
    const d = obj(data);
    if (d.action === "delete") {
      removeQueue(queryClient, Number(d.queueId ?? obj(d.queue).id));
      return;
    }
    const queue = d.queue as Queue | undefined;
    if (queue && typeof queue.id === "number") upsertQueue(queryClient, queue);
  },

  settings: (data, { queryClient }) => {
    const d = obj(data);
    const s = obj(d.setting);
    const key = typeof s.key === "string" ? s.key : typeof d.key === "string" ? d.key : undefined;
    const value = s.value ?? d.value;
    if (key && typeof value === "string") upsertSetting(queryClient, { key, value });
    else void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
  },

  /** ticket, appMessage, contact, whatsapp, whatsappSession (attendance screens, `features/tickets/realtime.ts`). */
  ...attendanceHandlers,
};

/** Splits `company-{id}-{name}` into its parts; null for other event names. */
export function parseEventName(event: string): { companyId: number; name: string } | null {
  const m = /^company-(\d+)-(.+)$/.exec(event);
  return m ? { companyId: Number(m[1]), name: m[2] } : null;
}

/** Runs the handler for one frame when it belongs to the session's company. */
export function dispatchRealtime(event: string, data: unknown, ctx: RealtimeContext): void {
  const parsed = parseEventName(event);
  if (!parsed || parsed.companyId !== ctx.session.user.companyId) return;
  realtimeHandlers[parsed.name]?.(data, ctx);
}
