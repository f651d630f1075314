/**
 * The realtime event table (Chatwoot style; docs/product/realtime.md). A frame `{"event":"company-{id}-{name}","data":...}` runs
 * the handlers of `name`: the session's own (`auth`, below) and those the features declare in their `index.tsx`
 * (`Feature.realtime`, gathered by `features/registry.tsx`). Unknown names are ignored. A new feature adds its handlers
 * in its own folder; this file does not change. A handler's `data` is typed by the frame map of the server
 * (`@atende/shared/events/frame-map` `FrameMap`: each name's zod schema, checked in the server's tests), imported as
 * types only.
 */
import type { FrameMap, FrameName } from "@atende/shared/events/frame-map";
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

/** The handler of `company-{id}-{name}` frames: `data` is what the server's schema of `name` says it is. */
export type RealtimeHandler<N extends FrameName> = (data: FrameMap[N], ctx: RealtimeContext) => void;

/** Handlers by frame name (the session's own, a feature's `realtime`). */
export type RealtimeHandlers = { [N in FrameName]?: RealtimeHandler<N> };

/** A handler of some frame name, its data type left aside: only {@link dispatchRealtime} calls these, by name. */
export type AnyRealtimeHandler = (data: never, ctx: RealtimeContext) => void;

/** The session's own handlers. */
export const sessionHandlers: RealtimeHandlers = {
  /** Single login: another login of this user bumped its token version (docs/product/users.md#sessions). */
  auth: (data, { session, endSessionElsewhere }) => {
    if (data.action === "update" && data.user.id === session.user.id && data.tokenVersion > tokenVersionOf(session.token)) endSessionElsewhere();
  },
};

/** Splits `company-{id}-{name}` into its parts; null for other event names. */
export function parseEventName(event: string): { companyId: number; name: string } | null {
  const m = /^company-(\d+)-(.+)$/.exec(event);
  return m ? { companyId: Number(m[1]), name: m[2] } : null;
}

/**
 * Runs the handlers for one frame when it belongs to the session's company. `data` is handed over as the frame map
 * types it: the server sends each name's data as its schema says; a name without handlers is ignored.
 */
export function dispatchRealtime(event: string, data: unknown, ctx: RealtimeContext): void {
  const parsed = parseEventName(event);
  if (!parsed || parsed.companyId !== ctx.session.user.companyId) return;
  const name = parsed.name as FrameName;
  const handlers: (AnyRealtimeHandler | undefined)[] = [sessionHandlers[name], ...(featureHandlers[name] ?? [])];
  for (const h of handlers) h?.(data as never, ctx);
}
