/**
 * The manifest's auth levels read the shared permission table: every `admin` operation resolves to a
 * named permission that `can` checks, held by admins and super users and by no agent.
 */
import { describe, expect, it } from "vitest";
import { can, PERMISSIONS } from "@atende/shared/access/permissions";
import { ADMIN_LEVEL_PERMISSION, permissionOf } from "@atende/shared/contract";
import { manifest } from "../routes.ts";

const ops = Object.entries(manifest) as [string, { auth: string; permission?: keyof typeof PERMISSIONS }][];

describe("route permissions", () => {
  it("maps every admin operation to a permission of the table", () => {
    const admins = ops.filter(([, op]) => op.auth === "admin");
    expect(admins.length).toBeGreaterThan(10);
    for (const [key, op] of admins) {
      const p = permissionOf(op as never);
      expect(p, key).toBeDefined();
      expect(Object.keys(PERMISSIONS), key).toContain(p);
      expect(can({ profile: "admin" }, p!), key).toBe(true);
      expect(can({ profile: "user", super: true }, p!), key).toBe(true);
      expect(can({ profile: "user" }, p!), key).toBe(false);
    }
  });

  it("uses the admin level's permission unless the operation names its own", () => {
    expect(permissionOf({ auth: "admin" })).toBe(ADMIN_LEVEL_PERMISSION);
    expect(permissionOf({ auth: "admin", permission: "settings:manage" })).toBe("settings:manage");
    expect(permissionOf({ auth: "user" })).toBeUndefined();
    expect(permissionOf(manifest["POST /api/users"] as never)).toBe("user-modal:editProfile");
    expect(permissionOf(manifest["PUT /api/settings/{key}"] as never)).toBe("settings:manage");
  });
});
