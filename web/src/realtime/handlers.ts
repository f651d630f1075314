/**
 * The realtime event table (Chatwoot style; docs/product/realtime.md). A frame `{"event":"company-{id}-{name}","data":...}` runs
 * the handlers of `name`: the session's own (`auth`, below) and those the features declare in their `index.tsx`
 * (`Feature.realtime`, gathered by `features/registry.tsx`). Unknown names are ignored. A new feature adds its handlers
 * in its own folder; this file does not change.
 */
import type { QueryClient } from "@tanstack/react-query";
import { tokenVersionOf, type Session } from "../api/session.ts";
import { featureHandlers } from "../features/registry.tsx";

export interface RealtimeContext {
  queryClient: QueryClient;
  /** The session at the time the frame arrived. */
  session: Session;
  /** Shows 'Sua conta foi acessada em outro computador.' and clears the session after 1 s (single login). */
  endSessionElsewhere: () => void;
}

// biome-ignore lint/suspicious/noExplicitAny: a frame's data is checked by each handler (zod or guards) before use
export type RealtimeHandler = (data: any, ctx: RealtimeContext) => void;

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

/** The session's own handlers. */
export const sessionHandlers: Record<string, RealtimeHandler> = {
  /** Single login: another login of this user bumped its token version (docs/product/users.md#sessions). */
  auth: (data, { session, endSessionElsewhere }) => {
    const d = obj(data);
    const userId = Number(obj(d.user).id ?? d.userId);
    const tv = Number(d.tokenVersion);
    if (d.action === "update" && userId === session.user.id && Number.isFinite(tv) && tv > tokenVersionOf(session.token)) endSessionElsewhere();
  },
};

/** Splits `company-{id}-{name}` into its parts; null for other event names. */
export function parseEventName(event: string): { companyId: number; name: string } | null {
  const m = /^company-(\d+)-(.+)$/.exec(event);
  return m ? { companyId: Number(m[1]), name: m[2] } : null;
}

/** Runs the handlers for one frame when it belongs to the session's company. */
export function dispatchRealtime(event: string, data: unknown, ctx: RealtimeContext): void {
  const parsed = parseEventName(event);
  if (!parsed || parsed.companyId !== ctx.session.user.companyId) return;
  sessionHandlers[parsed.name]?.(data, ctx);
  for (const h of featureHandlers[parsed.name] ?? []) h(data, ctx);
}
