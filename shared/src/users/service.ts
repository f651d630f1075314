/**
 * User rules (docs/product/users.md).
 *
 * - Admins (profile admin or super) list, create, edit and delete the users of their own company.
 * - Any user may read themselves and change their own name and password, nothing else (other fields sent with
 *   their current values are tolerated so a full form can be submitted; a different value → 403).
 * - Email is unique across the product (global marker, 409 `ERR_EMAIL_ALREADY_EXISTS`).
 * - Responses never carry `passwordHash`, `tokenVersion` or `refreshJti`.
 * - Every change publishes `company-{id}-user` `{action: "create"|"update", user}` or `{action: "delete", userId}`.
 */
import { planSlot, planSlotRelease, withPlanSlot } from "../plans/service.ts";
import { can } from "../access/permissions.ts";
import bcrypt from "bcryptjs";
import { randomUUID } from "node:crypto";
import { signAccessToken, signRefreshToken, type AuthContext } from "../auth/tokens.ts";
import { getConfig } from "../config.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { listQueues } from "../queues/repository.ts";
import type { QueueItem } from "../queues/schema.ts";
import { dispatch } from "../events/index.ts";
import { pendingRunPuts } from "../events/durable.ts";
import { laterIso } from "../common.ts";
import "./events.ts";
import { bumpTokenVersion, countUsers, deleteUserItems, getEmailOwner, getUser, getWhatsappRef, listUsers, patchUser, putNewUser, updateUserFields, type UserChanges } from "./repository.ts";
import type { CreateUserBody, PublicUser, UpdateUserBody, UserItem } from "./schema.ts";

/** bcrypt cost factor for stored password hashes. */
export const BCRYPT_COST = 10;
/** Page size of `GET /api/users`. */
export const USERS_PAGE_SIZE = 20;

/** Hashes a password with bcrypt (cost {@link BCRYPT_COST}). */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

/** Compares a password with a stored bcrypt hash. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/** Editing other users (profile, queues) is the user modal's admin permission (docs/product/users.md#profiles-and-rights). */
const isAdminCaller = (a: Pick<AuthContext, "profile" | "super">) => can(a, "user-modal:editProfile");

/** Lower-case, accent-free text for searching names and emails. */
export const normalizeSearch = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();

/** Context for rendering users: the company's queues and the referenced connections. */
interface RenderContext {
  queues: Map<number, QueueItem>;
  whatsapps: Map<number, { id: number; name: string } | undefined>;
}

async function renderContext(companyId: number, users: UserItem[]): Promise<RenderContext> {
  const queues = new Map((await listQueues(companyId)).map((q) => [q.id, q]));
  const ids = [...new Set(users.map((u) => u.whatsappId).filter((x): x is number => x != null))];
  const refs = await Promise.all(ids.map((id) => getWhatsappRef(companyId, id)));
  return { queues, whatsapps: new Map(ids.map((id, i) => [id, refs[i]])) };
}

/** The API shape of a user: no secrets; `queues` as `{id, name, color}` (deleted queues left out). */
export function toPublicUser(u: UserItem, ctx: RenderContext): PublicUser {
  const queues = u.queueIds
    .map((id) => ctx.queues.get(id))
    .filter((q): q is QueueItem => !!q)
    .map((q) => ({ id: q.id, name: q.name, color: q.color }));
  return {
    id: u.id,
    companyId: u.companyId,
    name: u.name,
    email: u.email,
    profile: u.profile,
    super: u.super,
    online: u.online,
    allTicket: u.allTicket,
    whatsappId: u.whatsappId,
    queueIds: queues.map((q) => q.id),
    queues,
    whatsapp: u.whatsappId != null ? (ctx.whatsapps.get(u.whatsappId) ?? null) : null,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

/** Renders one stored user as {@link PublicUser}. */
export async function publicUser(u: UserItem): Promise<PublicUser> {
  return toPublicUser(u, await renderContext(u.companyId, [u]));
}

/** Loads a user of the company or throws 404 `ERR_NO_USER_FOUND`. */
export async function requireUser(companyId: number, userId: number): Promise<UserItem> {
  const u = await getUser(companyId, userId);
  if (!u) throw new AppError("ERR_NO_USER_FOUND");
  return u;
}

/**
 * `GET /api/users` (admin): the company's users matching `searchParam` (name or email, accent- and case-insensitive;
 * applied from 3 characters, shorter terms list everyone), 20 per page, in id order.
 * Returns `{users, count, hasMore}` where `count` is the number of matches.
 */
export async function listUsersPage(
  auth: AuthContext,
  opts: { searchParam?: string; pageNumber: number },
): Promise<{ users: PublicUser[]; count: number; hasMore: boolean }> {
  const all = await listUsers(auth.companyId);
  const term = normalizeSearch(opts.searchParam ?? "");
  const matches = term.length >= 3 ? all.filter((u) => normalizeSearch(u.name).includes(term) || normalizeSearch(u.email).includes(term)) : all;
  const offset = (opts.pageNumber - 1) * USERS_PAGE_SIZE;
  const page = matches.slice(offset, offset + USERS_PAGE_SIZE);
  const ctx = await renderContext(auth.companyId, page);
  return { users: page.map((u) => toPublicUser(u, ctx)), count: matches.length, hasMore: offset + page.length < matches.length };
}

/** `GET /api/users/list`: every user of the caller's company (any profile may read it: transfer and filter dialogs). */
export async function listAllUsers(auth: AuthContext): Promise<PublicUser[]> {
  const all = await listUsers(auth.companyId);
  const ctx = await renderContext(auth.companyId, all);
  return all.map((u) => toPublicUser(u, ctx));
}

/** `GET /api/users/{id}`: admins read any user of their company, others only themselves (403 `ERR_NO_PERMISSION`). */
export async function showUser(auth: AuthContext, userId: number): Promise<PublicUser> {
  if (!isAdminCaller(auth) && userId !== auth.userId) throw new AppError("ERR_NO_PERMISSION");
  return publicUser(await requireUser(auth.companyId, userId));
}

async function checkReferences(companyId: number, queueIds: number[] | undefined, whatsappId: number | null | undefined): Promise<void> {
  if (queueIds?.length) {
    const known = new Set((await listQueues(companyId)).map((q) => q.id));
    if (queueIds.some((id) => !known.has(id))) throw new AppError("ERR_NO_QUEUE_FOUND");
  }
  if (whatsappId != null && !(await getWhatsappRef(companyId, whatsappId))) throw new AppError("ERR_NO_WAPP_FOUND");
}

const uniq = (ids: number[]) => [...new Set(ids)];

/**
 * `POST /api/users` (admin): creates a user in the caller's company (never another's) with its email marker.
 * Unknown queue → 404 `ERR_NO_QUEUE_FOUND`; unknown connection → 404 `ERR_NO_WAPP_FOUND`; email taken → 409; the
 * plan's user count reached → 403 `ERR_USER_CREATION_COUNT`. Publishes `company-{id}-user` `{action: "create", user}`.
 */
export async function createUser(auth: AuthContext, body: CreateUserBody): Promise<PublicUser> {
  if (!isAdminCaller(auth)) throw new AppError("ERR_NO_PERMISSION");
  const queueIds = uniq(body.queueIds);
  await checkReferences(auth.companyId, queueIds, body.whatsappId);
  // Checked before the id counter (a refused user takes no id); the email marker still settles a race.
  if (await getEmailOwner(body.email)) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
  const slot = await planSlot(auth.companyId, "users", () => countUsers(auth.companyId));
  const now = new Date().toISOString();
  const item: UserItem = {
    id: await nextId(auth.companyId, "user"),
    companyId: auth.companyId,
    name: body.name,
    email: body.email,
    passwordHash: await hashPassword(body.password),
    profile: body.profile,
    super: false,
    online: false,
    allTicket: body.allTicket,
    whatsappId: body.whatsappId ?? null,
    queueIds,
    tokenVersion: 0,
    createdAt: now,
    updatedAt: now,
  };
  await withPlanSlot(slot, (extra) => putNewUser(item, extra));
  const user = await publicUser(item);
  await dispatch({ type: "user.created", companyId: auth.companyId, user });
  return user;
}

const sameIds = (a: number[], b: number[]) => {
  const x = uniq(a).sort((p, q) => p - q);
  const y = uniq(b).sort((p, q) => p - q);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * `PUT /api/users/{id}`. Admins edit any user of their company (a non-super admin cannot edit a super user);
 * any other caller only themselves, and only name and password (another field with a different value → 403
 * `ERR_NO_PERMISSION`). An empty password leaves it unchanged. Changing one's own password needs `oldPassword`
 * (400 `ERR_VALIDATION` on `oldPassword` when missing or wrong). A password, profile, allTicket or queue change bumps
 * the user's token version (every token and refresh token they hold stops working); when the user is the caller,
 * the result carries `session` (new access and refresh tokens) so this session continues. Publishes `{action: "update", user}`.
 */
export async function updateUser(auth: AuthContext, userId: number, body: UpdateUserBody): Promise<PublicUser & { session?: UserSession }> {
  const admin = isAdminCaller(auth);
  if (!admin && userId !== auth.userId) throw new AppError("ERR_NO_PERMISSION");
  const before = await requireUser(auth.companyId, userId);
  if (before.super && !can(auth, "users:editSuper")) throw new AppError("ERR_NO_PERMISSION");

  if (!admin) {
    const changesOther =
      (body.email !== undefined && body.email.toLowerCase() !== before.email.toLowerCase()) ||
      (body.profile !== undefined && body.profile !== before.profile) ||
      (body.allTicket !== undefined && body.allTicket !== before.allTicket) ||
      (body.whatsappId !== undefined && (body.whatsappId ?? null) !== before.whatsappId) ||
      (body.queueIds !== undefined && !sameIds(body.queueIds, before.queueIds));
    if (changesOther) throw new AppError("ERR_NO_PERMISSION");
  }

  const self = userId === auth.userId;
  if (body.password && self) {
    // Changing one's own password needs the current one (a stolen session must not take the account over).
    if (!body.oldPassword) throw new AppError("ERR_VALIDATION", { fields: [{ path: "oldPassword", message: "Required" }] });
    if (!(await verifyPassword(body.oldPassword, before.passwordHash))) {
      throw new AppError("ERR_VALIDATION", { fields: [{ path: "oldPassword", message: "Senha atual incorreta" }] });
    }
  }
  const changes: UserChanges = { name: body.name };
  if (body.password) changes.passwordHash = await hashPassword(body.password);
  if (admin) {
    Object.assign(changes, {
      email: body.email,
      profile: body.profile,
      allTicket: body.allTicket,
      whatsappId: body.whatsappId,
      queueIds: body.queueIds ? uniq(body.queueIds) : undefined,
    });
    await checkReferences(auth.companyId, changes.queueIds, changes.whatsappId);
  }
  // The user as this write leaves it: its `user.updated` is written with the write (its pending runs) and published.
  const now = laterIso(before.updatedAt);
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as UserChanges;
  const event = { type: "user.updated", companyId: auth.companyId, user: await publicUser({ ...before, ...set, updatedAt: now }) } as const;
  await updateUserFields(before, changes, now, pendingRunPuts(event));
  // A password, profile, queue or allTicket change revokes the user's tokens (and sockets registered with them).
  const revoke =
    !!changes.passwordHash ||
    (changes.profile !== undefined && changes.profile !== before.profile) ||
    (changes.allTicket !== undefined && changes.allTicket !== before.allTicket) ||
    (changes.queueIds !== undefined && !sameIds(changes.queueIds, before.queueIds));
  let session: UserSession | undefined;
  if (revoke) {
    const jti = self ? randomUUID() : undefined;
    const bumped = await bumpTokenVersion(auth.companyId, userId, jti);
    // A new password closes the sockets opened with an older token version (`events/sockets.ts`); a
    // profile or queue change keeps them open, rewritten with the new rule by the `user.updated` below.
    if (bumped && changes.passwordHash) await dispatch({ type: "user.revoked", companyId: auth.companyId, userId, tokenVersion: bumped.tokenVersion });
    // The caller keeps working with a fresh pair; every other session of theirs is revoked.
    if (bumped && jti) session = await freshSession(bumped, jti);
  }
  await dispatch(event);
  return session ? { ...event.user, session } : event.user;
}

/** New tokens for the caller after a self-change revoked their older ones (the HTTP layer sets the cookie). */
export interface UserSession {
  token: string;
  refreshToken: string;
  refreshMaxAgeSeconds: number;
}

async function freshSession(u: UserItem, jti: string): Promise<UserSession> {
  const [token, refreshToken] = await Promise.all([
    signAccessToken({ id: u.id, companyId: u.companyId, tokenVersion: u.tokenVersion, profile: u.profile }),
    signRefreshToken({ id: u.id, companyId: u.companyId, tokenVersion: u.tokenVersion }, jti),
  ]);
  return { token, refreshToken, refreshMaxAgeSeconds: getConfig().REFRESH_TOKEN_TTL_SECONDS };
}

/**
 * `DELETE /api/users/{id}` (admin): deletes a user of the caller's company and frees the email.
 * Deleting yourself → 403 `ERR_NO_PERMISSION`; a non-super admin cannot delete a super user.
 * Publishes `{action: "delete", userId}`.
 */
export async function deleteUser(auth: AuthContext, userId: number): Promise<void> {
  if (!isAdminCaller(auth)) throw new AppError("ERR_NO_PERMISSION");
  const u = await requireUser(auth.companyId, userId);
  if (u.id === auth.userId) throw new AppError("ERR_NO_PERMISSION");
  if (u.super && !can(auth, "users:editSuper")) throw new AppError("ERR_NO_PERMISSION");
  await deleteUserItems(u, [planSlotRelease(auth.companyId, "users")]);
  await dispatch({ type: "user.deleted", companyId: auth.companyId, userId });
}

/**
 * Sets a user's `online` flag (WebSocket connect/disconnect and `userStatus` pings) and publishes
 * `company-{id}-user` `{action: "update", user}`, only when the flag changes: the same value again writes and publishes
 * nothing. Returns the user when it changed; `undefined` when it did not, or the user no longer exists.
 */
export async function setUserOnline(companyId: number, userId: number, online: boolean): Promise<PublicUser | undefined> {
  const u = await patchUser(companyId, userId, { online }, { onlyIfOnlineChanges: true });
  if (!u) return undefined;
  const user = await publicUser(u);
  // Only the online flag moved: no ticket row shows it (no summary to refresh).
  await dispatch({ type: "user.updated", companyId, user, changed: ["online"] });
  return user;
}
