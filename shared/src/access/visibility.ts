/**
 * The ticket visibility rule with the company's settings (attendance.md §6; issue 7 §2): `canSee` (pure, in
 * `./tickets.ts`) fed with `viewclosed` / `viewgroups`, read from the settings repository only when they can change
 * the answer. Server side only (it reads DynamoDB); the web passes its cached settings to `canSee` itself.
 */
import { visibilitySettings } from "../settings/repository.ts";
import { isAdminLike } from "./permissions.ts";
import { canSee, type SeenTicket, type Viewer, type VisibilitySettings } from "./tickets.ts";

/** The settings `canSee` needs for `viewer` in company `companyId`: none for admins (they see all), else one read. */
export async function visibilityFor(viewer: Viewer, companyId: number): Promise<VisibilitySettings | undefined> {
  return isAdminLike(viewer) ? undefined : visibilitySettings(companyId);
}

/**
 * True when `viewer` may see `ticket` of company `companyId`, with the company's `viewclosed` / `viewgroups` settings
 * (read only for a closed or group ticket the viewer could otherwise see and is not assigned to).
 */
export async function canSeeInCompany(viewer: Viewer, ticket: SeenTicket, companyId: number): Promise<boolean> {
  if (!canSee(viewer, ticket)) return false;
  const restricted = ticket.status === "closed" || !!ticket.isGroup;
  if (!restricted || isAdminLike(viewer) || (ticket.userId != null && ticket.userId === viewer.userId)) return true;
  return canSee(viewer, ticket, await visibilitySettings(companyId));
}
