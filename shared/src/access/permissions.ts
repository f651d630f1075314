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

import { QUEUE_PERMISSIONS } from "../queues/permissions.ts";
import { JOB_PERMISSIONS } from "../jobs/permissions.ts";
import { DASHBOARD_PERMISSIONS } from "../dashboard/permissions.ts";
import { QUICK_MESSAGE_PERMISSIONS } from "../quickMessages/permissions.ts";
import { SCHEDULE_PERMISSIONS } from "../schedules/permissions.ts";
import { TAG_PERMISSIONS } from "../tags/permissions.ts";
import { INVOICE_PERMISSIONS } from "../invoices/permissions.ts";
import { PRIVACY_PERMISSIONS } from "../privacy/permissions.ts";
import { REPORT_PERMISSIONS } from "../reports/permissions.ts";
import { composePermissions, definePermissions, PROFILES, type ProfileName } from "./define.ts";

export { definePermissions, PROFILES, type ProfileName };

/** Who is asking: the verified token's user (or a socket's registration, or the web's session user). */
export interface Actor {
  profile: string;
  super?: boolean | null;
}

/** The core rows (areas without a folder of their own yet); features declare theirs with `definePermissions`. */
const CORE_PERMISSIONS = definePermissions({
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
  // server-side administration of company entities (the routes marked admin)
  /** HTTP operations the route manifest marks `admin` without a more specific permission (`contract.ts`). */
  "routes:admin": ["admin"],
  /** Company settings. */
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
});

/**
 * THE table: permission → profiles that hold it; `super` users hold every permission. Names are the spec's
 * (`<area>:<action>`). A feature declares its rows in its own `permissions.ts` with `definePermissions` and adds
 * one entry here.
 */
export const PERMISSIONS = composePermissions(CORE_PERMISSIONS, TAG_PERMISSIONS, QUEUE_PERMISSIONS, QUICK_MESSAGE_PERMISSIONS, JOB_PERMISSIONS, DASHBOARD_PERMISSIONS, SCHEDULE_PERMISSIONS, INVOICE_PERMISSIONS, PRIVACY_PERMISSIONS, REPORT_PERMISSIONS);

export type Permission = keyof typeof PERMISSIONS;

/** True when the actor holds the named permission (super users hold all). Unknown profiles hold none. */
export function can(actor: Actor | null | undefined, permission: Permission): boolean {
  if (!actor) return false;
  if (actor.super) return true;
  return (PERMISSIONS[permission] as readonly string[]).includes(actor.profile);
}

/** Admin-like for ticket visibility and administration: `admin` profile or the `super` flag. */
export const isAdminLike = (actor: Actor | null | undefined): boolean => !!actor && (actor.profile === "admin" || !!actor.super);
