/**
 * Which users of a company have a subscribed device, kept per process for {@link PUSH_USERS_CACHE_MS} (like the
 * webhooks listener's cache): the push listener asks it in `wants`, so a message for a user (or a company) without any
 * subscribed device carries no pending run and costs the ingest nothing. A subscription made in this process is seen
 * at once ({@link forgetPushUsers}); one made in another process from at most that long after.
 */
import { listCompanySubscriptions } from "./repository.ts";

/** How long a process trusts what it read of a company's subscribed users (ms). */
export const PUSH_USERS_CACHE_MS = 15_000;
const known = new Map<number, { users: Set<number>; until: number }>();

/** The company's users with a subscribed device as last read, or undefined when unknown or stale. */
export function knownPushUsers(companyId: number): Set<number> | undefined {
  const hit = known.get(companyId);
  return hit && hit.until > Date.now() ? hit.users : undefined;
}

/** Reads (and keeps) the company's users with a subscribed device. */
export async function readPushUsers(companyId: number): Promise<Set<number>> {
  const users = new Set((await listCompanySubscriptions(companyId)).map((s) => s.userId));
  if (known.size >= 10_000) known.delete(known.keys().next().value!);
  known.set(companyId, { users, until: Date.now() + PUSH_USERS_CACHE_MS });
  return users;
}

/** Forgets what this process read of the company (a device subscribed or left). */
export function forgetPushUsers(companyId: number): void {
  known.delete(companyId);
}
