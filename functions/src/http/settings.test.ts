/**
 * Settings area through the real Lambda handler: defaults, per-key values, unknown keys, super-only
 * keys, tenant isolation, the `company-{id}-settings` event, and the integration credentials sealed at rest and never
 * answered in clear.
 */
import { describe, expect, it } from "vitest";
import { api, makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { registerSocket } from "@atende/shared/users/realtime-capture.testkit";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { readCredential } from "@atende/shared/settings/service";

const w = companyWorld();

const settingsOf = async (token: string) => {
  const res = await api("GET", "/api/settings", { token });
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body as { key: string; value: string }[]).map((s) => [s.key, s.value]));
};

describe("GET /api/settings", () => {
  it("returns every key with the defaults of the reference system", async () => {
    const { admin } = await w.fresh();
    const s = await settingsOf(admin.token);
    expect(s).toMatchObject({
      CheckMsgIsGroup: "enabled",
      viewclosed: "disabled",
      viewgroups: "disabled",
      sendGreetingAccepted: "disabled",
      userRating: "disabled",
      scheduleType: "disabled",
      call: "disabled",
      chatBotType: "text",
      asaas: "",
    });
  });

  it("hides integration credentials from non-admin users", async () => {
    const { cid: companyId } = await w.fresh();
    const agent = await makeUser(companyId);
    const s = await settingsOf(agent.token);
    expect(s.viewclosed).toBe("disabled");
    expect(s).not.toHaveProperty("asaas");
    expect(s).not.toHaveProperty("tokenixc");
  });
});

describe("PUT /api/settings/{key}", () => {
  it("stores the value for the caller's company only and announces it", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    const sockA = await registerSocket(a.cid, { id: a.admin.id, profile: "admin" });
    const sockB = await registerSocket(b.cid, { id: b.admin.id, profile: "admin" });
    w.capture.clear();
    const res = await api("PUT", "/api/settings/viewclosed", { token: a.admin.token, body: { key: "viewclosed", value: "enabled" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: "viewclosed", value: "enabled" });
    expect((await settingsOf(a.admin.token)).viewclosed).toBe("enabled");
    expect((await settingsOf(b.admin.token)).viewclosed).toBe("disabled");
    expect(w.capture.frames).toEqual([
      { connectionId: sockA, event: `company-${a.cid}-settings`, data: { action: "update", setting: { key: "viewclosed", value: "enabled" } } },
    ]);
    expect(w.capture.frames.some((f) => f.connectionId === sockB)).toBe(false);
    // The body key is optional.
    expect((await api("PUT", "/api/settings/CheckMsgIsGroup", { token: a.admin.token, body: { value: "disabled" } })).status).toBe(200);
    expect((await settingsOf(a.admin.token)).CheckMsgIsGroup).toBe("disabled");
  });

  it("answers 400 for unknown keys, values the key does not allow, or malformed bodies, and writes nothing", async () => {
    const { admin } = await w.fresh();
    const before = await settingsOf(admin.token);
    const cases: [string, unknown][] = [
      ["/api/settings/notAKey", { value: "enabled" }],
      ["/api/settings/viewclosed", { value: "sometimes" }],
      ["/api/settings/scheduleType", { value: "weekly" }],
      ["/api/settings/chatBotType", { value: "buttons" }],
      ["/api/settings/viewclosed", { key: "viewgroups", value: "enabled" }],
      ["/api/settings/viewclosed", {}],
      ["/api/settings/viewclosed", { value: 1 }],
      ["/api/settings/viewclosed", "[broken"],
    ];
    for (const [path, body] of cases) {
      const res = await api("PUT", path, { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^ERR_(VALIDATION|INVALID_JSON)$/);
    }
    expect(await settingsOf(admin.token)).toEqual(before);
  });

  it("refuses non-admins, and super-only keys to admins without the super flag", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId);
    expect((await api("PUT", "/api/settings/viewclosed", { token: agent.token, body: { value: "enabled" } })).status).toBe(403);
    const superOnly = await api("PUT", "/api/settings/allowregister", { token: admin.token, body: { value: "enabled" } });
    expect(superOnly.status).toBe(403);
    expect(superOnly.body).toEqual({ error: "ERR_NO_PERMISSION" });
    const s = await settingsOf(admin.token);
    expect(s.viewclosed).toBe("disabled");
    expect(s.allowregister).toBe("disabled");
    const root = await w.fresh({ adminSuper: true });
    expect((await api("PUT", "/api/settings/allowregister", { token: root.admin.token, body: { value: "enabled" } })).status).toBe(200);
    expect((await settingsOf(root.admin.token)).allowregister).toBe("enabled");
  });
});

describe("GET /api/settings/{key} (public; the global section)", () => {
  it("answers the platform's allowregister, viewregister and trial without a token, as a super user in any company set them", async () => {
    const anon = async (key: string) => api("GET", `/api/settings/${key}`);
    expect((await anon("viewregister")).body).toEqual({ key: "viewregister", value: "disabled" });
    expect((await anon("trial")).body).toEqual({ key: "trial", value: "3" });

    // A super user of some company opens registration: it is the platform's, so every company and /login see it.
    const root = await w.fresh({ adminSuper: true });
    const other = await w.fresh();
    expect((await api("PUT", "/api/settings/viewregister", { token: root.admin.token, body: { value: "enabled" } })).status).toBe(200);
    expect((await api("PUT", "/api/settings/allowregister", { token: root.admin.token, body: { value: "enabled" } })).status).toBe(200);
    expect((await anon("viewregister")).body).toEqual({ key: "viewregister", value: "enabled" });
    expect((await anon("allowregister")).body).toEqual({ key: "allowregister", value: "enabled" });
    expect(await settingsOf(other.admin.token)).toMatchObject({ viewregister: "enabled", allowregister: "enabled" });
    // An ordinary admin still cannot change it.
    expect((await api("PUT", "/api/settings/viewregister", { token: other.admin.token, body: { value: "disabled" } })).status).toBe(403);
    expect((await anon("viewregister")).body.value).toBe("enabled");
  });

  it("answers no other key without a token: a company's settings and credentials stay private", async () => {
    const { admin } = await w.fresh();
    expect((await api("PUT", "/api/settings/viewclosed", { token: admin.token, body: { value: "enabled" } })).status).toBe(200);
    for (const key of ["viewclosed", "asaas", "tokenixc", "notAKey"]) {
      const res = await api("GET", `/api/settings/${key}`);
      expect(res.status, key).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      expect(JSON.stringify(res.body)).not.toMatch(/enabled|disabled"/);
    }
  });
});

describe("integration credentials (IXC, MK-AUTH, ASAAS)", () => {
  it("are stored sealed and never answered in clear: set shows the mask, the mask keeps them, empty clears them", async () => {
    const { cid, admin } = await w.fresh();
    const root = await makeUser(cid, { profile: "admin", super: true });
    const put = (key: string, value: string, token = root.token) => api("PUT", `/api/settings/${key}`, { token, body: { value } });
    const set = await put("asaas", "asaas-token-123");
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ key: "asaas", value: "********" });
    expect((await put("clientsecretmkauth", "mk-secret-9")).body.value).toBe("********");
    for (const token of [admin.token, root.token]) expect(await settingsOf(token)).toMatchObject({ asaas: "********", clientsecretmkauth: "********", tokenixc: "" });

    const stored = (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.setting(cid, "asaas") }))).Item;
    expect(JSON.stringify(stored)).not.toContain("asaas-token-123");
    expect(await readCredential(cid, "asaas")).toBe("asaas-token-123");

    // Sending back the mask keeps the credential; an admin who is not super may not change it.
    expect((await put("asaas", "********")).body.value).toBe("********");
    expect(await readCredential(cid, "asaas")).toBe("asaas-token-123");
    expect((await put("asaas", "stolen", admin.token)).status).toBe(403);
    expect(await readCredential(cid, "asaas")).toBe("asaas-token-123");
    // A sealed value copied into another company does not open there.
    const other = await w.fresh();
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...stored, ...keys.setting(other.cid, "asaas"), companyId: other.cid } }));
    await expect(readCredential(other.cid, "asaas")).rejects.toThrow();

    expect((await put("asaas", "")).body.value).toBe("");
    expect(await readCredential(cid, "asaas")).toBe("");
  });
});
