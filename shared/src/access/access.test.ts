import { describe, expect, it } from "vitest";
import { canEditQuickMessage } from "../quickMessages/access.ts";
import { QUICK_MESSAGE_PERMISSIONS } from "../quickMessages/permissions.ts";
import { TAG_PERMISSIONS } from "../tags/permissions.ts";
import { composePermissions, definePermissions } from "./define.ts";
import { can, PERMISSIONS, type Permission } from "./permissions.ts";
import { canSee, type SeenTicket, type Viewer, type VisibilitySettings } from "./tickets.ts";

const admin: Viewer = { userId: 1, profile: "admin", queueIds: [] };
const superUser: Viewer = { userId: 2, profile: "user", super: true, queueIds: [] };
const q1: Viewer = { userId: 3, profile: "user", queueIds: [1], allTicket: "desabled" };
const q1all: Viewer = { userId: 4, profile: "user", queueIds: [1], allTicket: "enabled" };
const supervisor: Viewer = { userId: 5, profile: "supervisor", queueIds: [2], allTicket: "desabled" };

const open = (queueId: number | null, userId: number | null = null, extra: Partial<SeenTicket> = {}): SeenTicket => ({ queueId, userId, status: "open", ...extra });
const on: VisibilitySettings = { viewclosed: "enabled", viewgroups: "enabled" };
const off: VisibilitySettings = { viewclosed: "disabled", viewgroups: "disabled" };

describe("canSee", () => {
  const table: [string, Viewer, SeenTicket, VisibilitySettings | undefined, boolean][] = [
    ["admin sees a ticket of any queue", admin, open(9), undefined, true],
    ["admin sees a ticket without queue", admin, open(null), undefined, true],
    ["admin sees closed group tickets with the settings off", admin, open(9, null, { status: "closed", isGroup: true }), off, true],
    ["super user sees everything", superUser, open(9), off, true],
    ["user sees a ticket of their queue", q1, open(1), undefined, true],
    ["user does not see a ticket of another queue", q1, open(2), undefined, false],
    ["user without allTicket does not see a ticket without queue", q1, open(null), undefined, false],
    ["user with allTicket sees a ticket without queue", q1all, open(null), undefined, true],
    ["allTicket does not open other queues", q1all, open(2), undefined, false],
    ["the assignee sees their ticket in another queue", q1, open(2, 3), undefined, true],
    ["the assignee sees their closed ticket with viewclosed off", q1, open(2, 3, { status: "closed" }), off, true],
    ["another user's assignment does not help", q1, open(2, 4), undefined, false],
    ["closed ticket of my queue with viewclosed off", q1, open(1, null, { status: "closed" }), off, false],
    ["closed ticket of my queue with viewclosed on", q1, open(1, null, { status: "closed" }), on, true],
    ["group ticket of my queue with viewgroups off", q1, open(1, null, { isGroup: true }), off, false],
    ["group ticket of my queue with viewgroups on", q1, open(1, null, { isGroup: true }), on, true],
    ["closed ticket without settings given", q1, open(1, null, { status: "closed" }), undefined, true],
    ["supervisor is not admin for tickets: other queue", supervisor, open(1), undefined, false],
    ["supervisor sees their own queue", supervisor, open(2), undefined, true],
  ];
  it.each(table)("%s", (_name, viewer, ticket, settings, expected) => {
    expect(canSee(viewer, ticket, settings)).toBe(expected);
  });
});

describe("can", () => {
  it("gives the named admin permissions to admins and super users only", () => {
    const adminOnly: Permission[] = [
      "tickets-manager:showall",
      "user-modal:editProfile",
      "user-modal:editQueues",
      "ticket-options:deleteTicket",
      "contacts-page:deleteContact",
      "connections-page:actionButtons",
      "connections-page:addConnection",
      "connections-page:editOrDeleteConnection",
      "dashboard:view",
      "drawer-admin-items:view",
    ];
    for (const p of adminOnly) {
      expect(can({ profile: "admin" }, p), p).toBe(true);
      expect(can({ profile: "user", super: true }, p), p).toBe(true);
      expect(can({ profile: "user" }, p), p).toBe(false);
      expect(can({ profile: "supervisor" }, p), p).toBe(false);
    }
  });

  it("lets admin and supervisor, not user, use the tags' kanban switch", () => {
    expect(can({ profile: "admin" }, "tags:kanban")).toBe(true);
    expect(can({ profile: "supervisor" }, "tags:kanban")).toBe(true);
    expect(can({ profile: "user" }, "tags:kanban")).toBe(false);
  });

  it("keeps super-only areas from admins: other companies, global settings, super users, super routes, a past due date", () => {
    const superOnly = ["companies:manage", "companies:anyCompany", "settings:global", "users:editSuper", "routes:super", "subscription:pastDueDate"] as const;
    for (const p of superOnly) {
      expect(can({ profile: "admin" }, p), p).toBe(false);
      expect(can({ profile: "admin", super: true }, p), p).toBe(true);
    }
  });

  it("lets an admin, not a supervisor or user, edit the company's opening hours", () => {
    expect(can({ profile: "admin" }, "company-schedules:edit")).toBe(true);
    expect(can({ profile: "supervisor" }, "company-schedules:edit")).toBe(false);
    expect(can({ profile: "user" }, "company-schedules:edit")).toBe(false);
  });

  it("refuses unknown profiles and a missing actor", () => {
    expect(can({ profile: "root" }, "dashboard:view")).toBe(false);
    expect(can(undefined, "dashboard:view")).toBe(false);
    expect(Object.keys(PERMISSIONS).length).toBeGreaterThan(10);
  });

  it("composes the table from the features' own rows, refusing a name declared twice or not <area>:<action>", () => {
    for (const [name, profiles] of Object.entries({ ...TAG_PERMISSIONS, ...QUICK_MESSAGE_PERMISSIONS })) expect(PERMISSIONS[name as Permission]).toEqual(profiles);
    expect(can({ profile: "supervisor" }, "tags:kanban")).toBe(true);
    expect(can({ profile: "user" }, "quick-messages:editAny")).toBe(false);
    expect(() => composePermissions(TAG_PERMISSIONS, definePermissions({ "tags:kanban": ["admin"] }))).toThrow(/declared twice/);
    expect(() => definePermissions({ kanban: ["admin"] })).toThrow(/<area>:<action>/);
  });

  it("applies the quick message edit rule (admin and supervisor edit any, a user only their own non-global one)", () => {
    expect(canEditQuickMessage({ profile: "supervisor", userId: 5 }, { geral: true, userId: 1 })).toBe(true);
    expect(canEditQuickMessage({ profile: "user", userId: 5 }, { geral: true, userId: 5 })).toBe(false);
    expect(canEditQuickMessage({ profile: "user", userId: 5 }, { geral: false, userId: 5 })).toBe(true);
    expect(canEditQuickMessage({ profile: "user", userId: 5 }, { geral: false, userId: 6 })).toBe(false);
  });
});
