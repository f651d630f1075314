/**
 * The company visibility settings behind list and search, against DynamoDB Local: read once
 * and kept as briefly as the caller's context, so an agent's lists do not read the settings on every request; an
 * admin's change through the settings service is seen at once; a write that bypasses it within `AUTH_CACHE_MS`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { companyWorld } from "../../../test/world.ts";
import { AUTH_CACHE_MS, authenticate } from "../auth/tokens.ts";
import { settleDeferred } from "../events/index.ts";
import { putSetting } from "../settings/repository.ts";
import { updateSetting } from "../settings/service.ts";
import { visibilityFor } from "./visibility.ts";

const w = companyWorld();

afterEach(() => vi.useRealTimers());

describe("visibilityFor", () => {
  it("keeps a company's settings for a short time, drops them when a setting is updated", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = { userId: admin.id + 1000, profile: "user" };
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await visibilityFor(agent, companyId)).toEqual({ viewclosed: "disabled", viewgroups: "disabled" });

    // A write behind the service's back (no event) is seen once the short cache has run out.
    await putSetting({ companyId, key: "viewgroups", value: "enabled", updatedAt: new Date().toISOString() });
    expect((await visibilityFor(agent, companyId))?.viewgroups).toBe("disabled");
    vi.setSystemTime(Date.now() + AUTH_CACHE_MS + 1);
    expect((await visibilityFor(agent, companyId))?.viewgroups).toBe("enabled");

    // The admin's change through the settings service is seen at once.
    await updateSetting(await authenticate(admin.token), "viewclosed", "enabled");
    await settleDeferred();
    expect(await visibilityFor(agent, companyId)).toEqual({ viewclosed: "enabled", viewgroups: "enabled" });
  });

  it("reads nothing for an admin (they see every ticket)", async () => {
    const { cid: companyId, admin } = await w.fresh();
    expect(await visibilityFor({ userId: admin.id, profile: "admin" }, companyId)).toBeUndefined();
  });
});
