/**
 * THE ticket visibility rule (docs/product/tickets.md#who-sees-a-ticket): one pure function used by the ticket service
 * (`getAccessibleTicket`), the realtime audience (`events/realtime.ts`), the WebSocket room join (`functions/src/ws`)
 * and the web's notification filter. No I/O, no Node imports (the web bundles it).
 */
import { isAdminLike } from "./permissions.ts";

/** The viewer: a token's user, a socket registration or the web's session user. */
export interface Viewer {
  userId: number;
  profile: string;
  super?: boolean | null;
  queueIds?: number[] | null;
  /** `enabled` lets a user see tickets without queue (spelt `enabled | desabled`, the stored values of the old system). */
  allTicket?: string | null;
}

/** The ticket facts the rule reads. */
export interface SeenTicket {
  queueId: number | null | undefined;
  userId: number | null | undefined;
  status?: string;
  isGroup?: boolean;
}

/** Company settings the rule reads (`enabled` / `disabled`); omitted = no restriction from settings. */
export interface VisibilitySettings {
  viewclosed?: string;
  viewgroups?: string;
}

/**
 * True when `viewer` may see `ticket`:
 * - admins and super users: always;
 * - the ticket's assignee: always (their own work, even with the settings below off);
 * - others: when its queue is one of theirs, or it has no queue and their allTicket is `enabled`; and, when `settings`
 *   are given, a closed ticket only with `viewclosed` enabled and a group ticket only with `viewgroups` enabled.
 */
export function canSee(viewer: Viewer, ticket: SeenTicket, settings?: VisibilitySettings): boolean {
  if (isAdminLike(viewer)) return true;
  if (ticket.userId != null && ticket.userId === viewer.userId) return true;
  if (settings) {
    if (ticket.status === "closed" && settings.viewclosed !== "enabled") return false;
    if (ticket.isGroup && settings.viewgroups !== "enabled") return false;
  }
  if (ticket.queueId == null) return viewer.allTicket === "enabled";
  return (viewer.queueIds ?? []).includes(ticket.queueId);
}
