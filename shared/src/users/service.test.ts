/**
 * `setUserOnline` (called by the WebSocket handlers and the minute tick): flag and `company-{id}-user` update.
 */
import { describe, expect, it } from "vitest";
import { makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { registerSocket } from "./realtime-capture.testkit.ts";
import { getUser } from "./repository.ts";
import { setUserOnline } from "./service.ts";

const w = companyWorld();

describe("setUserOnline", () => {
  it("sets the flag and publishes the public user to the company", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId);
    const sock = await registerSocket(companyId, { id: admin.id, profile: "admin" });
    w.capture.clear();
    const user = await setUserOnline(companyId, agent.id, true);
    expect(user).toMatchObject({ id: agent.id, online: true });
    expect((await getUser(companyId, agent.id))!.online).toBe(true);
    expect(w.capture.frames).toHaveLength(1);
    expect(w.capture.frames[0]).toMatchObject({ connectionId: sock, event: `company-${companyId}-user`, data: { action: "update", user: { id: agent.id, online: true } } });
    expect(w.capture.frames[0].data.user).not.toHaveProperty("passwordHash");
    await setUserOnline(companyId, agent.id, false);
    expect((await getUser(companyId, agent.id))!.online).toBe(false);
  });

  it("ignores a user that does not exist and creates nothing", async () => {
    const { cid: companyId } = await w.fresh();
    w.capture.clear();
    expect(await setUserOnline(companyId, 9999, true)).toBeUndefined();
    expect(await getUser(companyId, 9999)).toBeUndefined();
    expect(w.capture.frames).toEqual([]);
  });
});
