/**
 * Roles and named permissions (docs/product/users.md#profiles-and-rights): the ONE table both the server
 * (services, HTTP handlers) and the web (menus, buttons, route guards) read. Pure: no I/O, no Node imports, so the web
 * bundles it from `@atende/shared/access/permissions`.
 *
 * Profiles: `user`, `supervisor`, `admin`; the `super` flag grants everything (super users run the platform).
 * The product names the admin permissions but has no per-profile table: an admin permission is held by `admin`
 * (and `super`); `supervisor` holds only the few the administration area grants it (tags' kanban switch, quick
 * messages' edit and delete).
 */

/** The profiles a user can have (the users schema's `Profile` enum mirrors this list). */
export const PROFILES = ["user", "supervisor", "admin"] as const;
export type ProfileName = (typeof PROFILES)[number];

/** Who is asking: the verified token's user (or a socket's registration, or the web's session user). */
export interface Actor {
  profile: string;
  super?: boolean | null;
}

/**
 * Permission → profiles that hold it. `super` users hold every permission. Names are the product's
 * (`<area>:<action>`); add a feature's permissions here, one line each.
 */
export const PERMISSIONS = {
  // the attendance area's named admin permissions
  "dashboard:view": ["admin"],
  "drawer-admin-items:view": ["admin"],
  /** The show-all toggle of the tickets manager (list every ticket of the company). */
  "tickets-manager:showall": ["admin"],
  /** Profile field of the user modal (and creating/deleting users, which the modal's profile implies). */
  "user-modal:editProfile": ["admin"],
  /** Queues, default connection and allTicket in the user modal. */
  "user-modal:editQueues": ["admin"],
  "ticket-options:deleteTicket": ["admin"],
  "contacts-page:deleteContact": ["admin"],
  "connections-page:actionButtons": ["admin"],
  "connections-page:addConnection": ["admin"],
  "connections-page:editOrDeleteConnection": ["admin"],
  // the administration area's permissions
  /** The Kanban switch of the tag modal (and the `kanban` field of tag writes). */
  "tags:kanban": ["admin", "supervisor"],
  /** The "geral" (global) selector of the quick message modal. */
  "quick-messages:global": ["admin"],
  /** Edit and delete of any quick message; a user edits only messages that are not geral (see {@link canEditQuickMessage}). */
  "quick-messages:editAny": ["admin", "supervisor"],
  // server-side administration of company entities (the routes marked admin)
  /** HTTP operations the route manifest marks `admin` without a more specific permission (`contract.ts`). */
  "routes:admin": ["admin"],
  /** Queues CRUD, company settings, closing every ticket at once. */
  "queues:manage": ["admin"],
  "settings:manage": ["admin"],
  /** The opening hours of the caller's own company (`PUT /api/companies/{id}/schedules`). */
  "company-schedules:edit": ["admin"],
  "tickets:closeAll": ["admin"],
  /** Seeing every ticket (queues, assignee and allTicket do not restrict): see `canSee` in `./tickets.ts`. */
  "tickets:seeAll": ["admin"],
  /** Receiving credential values (API tokens, keys) of settings and connections in full. */
  "secrets:view": ["admin"],
  /** Receiving connection QR codes and session state (connections page). */
  "connections:qrcode": ["admin"],
  /** Deleting or editing notes and messages of other users. */
  "notes:deleteAny": ["admin"],
  // super only (announcements, companies, plans, helps, logo, global settings)
  "announcements:manage": [],
  "companies:manage": [],
  "plans:manage": [],
  /** Operations the route manifest marks `super` (`contract.ts`). */
  "routes:super": [],
  /** Reading or writing any company (not only the caller's own). */
  "companies:anyCompany": [],
  /** The global settings (`SUPER_ONLY_SETTINGS`: registration, trial days, ...). */
  "settings:global": [],
  /** Editing or deleting a user who has the super flag. */
  "users:editSuper": [],
  /** Logging in and staying logged in after the company's due date. */
  "subscription:pastDueDate": [],
} as const satisfies Record<string, readonly ProfileName[]>;

export type Permission = keyof typeof PERMISSIONS;

/** True when the actor holds the named permission (super users hold all). Unknown profiles hold none. */
export function can(actor: Actor | null | undefined, permission: Permission): boolean {
  if (!actor) return false;
  if (actor.super) return true;
  return (PERMISSIONS[permission] as readonly string[]).includes(actor.profile);
}

/** Admin-like for ticket visibility and administration: `admin` profile or the `super` flag. */
export const isAdminLike = (actor: Actor | null | undefined): boolean => !!actor && (actor.profile === "admin" || !!actor.super);

/**
 * Quick messages: admin and supervisor edit and delete any; a user only a message that is not
 * geral (`geral` true = global) and, for a personal one, their own (`ownerId` = the message's userId).
 */
export function canEditQuickMessage(actor: Actor & { userId?: number }, message: { geral: boolean; userId?: number | null }): boolean {
  if (can(actor, "quick-messages:editAny")) return true;
  if (message.geral) return false;
  return message.userId == null || message.userId === actor.userId;
}
