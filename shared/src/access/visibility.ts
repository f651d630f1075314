/**
 * The ticket visibility rule with the company's settings (docs/product/tickets.md#who-sees-a-ticket): `canSee` (pure, in
 * `./tickets.ts`) fed with `viewclosed` / `viewgroups`, read from the settings repository only when they can change
 * the answer, and then kept as briefly as the caller's context ({@link AUTH_CACHE_MS}, `authenticateCached`): this
 * process drops a company's entry at once on `setting.updated` (the auth cache listener), others see a change within
 * that time. Server side only (it reads DynamoDB); the web passes its cached settings to `canSee` itself.
 */
import { AUTH_CACHE_MS } from "../auth/tokens.ts";
import { visibilitySettings } from "../settings/repository.ts";
import { isAdminLike } from "./permissions.ts";
import { canSee, type SeenTicket, type Viewer, type VisibilitySettings } from "./tickets.ts";

const CACHE_MAX = 10_000;
const cache = new Map<number, { at: number; settings: Required<VisibilitySettings> }>();

/** The company's `viewclosed` / `viewgroups`, read at most once per {@link AUTH_CACHE_MS} in this process. */
async function companyVisibility(companyId: number): Promise<Required<VisibilitySettings>> {
  const hit = cache.get(companyId);
  const now = Date.now();
  if (hit && now - hit.at < AUTH_CACHE_MS) return hit.settings;
  const settings = await visibilitySettings(companyId);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(companyId, { at: now, settings });
  return settings;
}

/** Drops the cached visibility settings of a company (a setting changed). */
export function forgetVisibility(companyId: number): void {
  cache.delete(companyId);
}

/** The settings `canSee` needs for `viewer` in company `companyId`: none for admins (they see all), else the cached read. */
export async function visibilityFor(viewer: Viewer, companyId: number): Promise<VisibilitySettings | undefined> {
  return isAdminLike(viewer) ? undefined : companyVisibility(companyId);
}

/**
 * True when `viewer` may see `ticket` of company `companyId`, with the company's `viewclosed` / `viewgroups` settings
 * (read only for a closed or group ticket the viewer could otherwise see and is not assigned to).
 */
export async function canSeeInCompany(viewer: Viewer, ticket: SeenTicket, companyId: number): Promise<boolean> {
  if (!canSee(viewer, ticket)) return false;
  const restricted = ticket.status === "closed" || !!ticket.isGroup;
  if (!restricted || isAdminLike(viewer) || (ticket.userId != null && ticket.userId === viewer.userId)) return true;
  return canSee(viewer, ticket, await companyVisibility(companyId));
}
