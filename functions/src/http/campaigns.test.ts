/**
 * Campaigns through the real Lambda handlers: every route with its validation, the status moves (cancel only while
 * in progress, restart only when cancelled), editability (INATIVA, PROGRAMADA more than an hour ahead, CANCELADA
 * saving its messages), admins only, the plan flag, cross-company isolation on every route, the media through the
 * media port, the settings (defaults, options, duplicate variable keys refused), the report's rows and the frames.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, multipartBody } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws } from "../../../test/world.ts";
import { headMedia } from "../../../shared/src/storage/media.ts";
import { makeContact, makeTicket } from "../../../shared/src/tickets/fixtures.testkit.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { getCampaign } from "../../../shared/src/campaigns/repository.ts";
import { runCampaignPlanner, sendShipping } from "../../../shared/src/campaigns/engine.ts";
import { Campaign, CampaignSettings, CampaignsPage, ShippingsPage } from "../../../shared/src/campaigns/schema.ts";

useLocalAws({ sqs: true, bucket: "atende-campaigns-test" });
const w = companyWorld({ whatsapp: true, agents: [{ name: "Ana" }, { name: "Sofia", profile: "supervisor" }], other: true });
const ana = () => w.agents[0];
const sofia = () => w.agents[1];

let tagId = 0;
beforeAll(async () => {
  const tag = await api("POST", "/api/tags", { token: w.admin.token, body: { name: "Clientes VIP", color: "#A4CCCC" } });
  tagId = tag.body.id;
  for (const name of ["Maria", "João"]) {
    const t = await makeTicket(w.cid, { contact: await makeContact(w.cid, name), whatsappId: w.wa });
    await api("PUT", `/api/ticket-tags/${t.id}/${tagId}`, { token: w.admin.token });
  }
});

// A Monday 10:00 in São Paulo (inside the default business hours): the planner's clock.
const MONDAY_10 = Date.parse("2026-11-30T13:00:00Z");
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const create = (body: Record<string, unknown>, token = w.admin.token) => api("POST", "/api/campaigns", { token, body });
const full = (extra: Record<string, unknown> = {}) => ({ name: "Natal", message1: "Olá {nome}", whatsappId: w.wa, tagListId: tagId, ...extra });
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

describe("POST /api/campaigns", () => {
  it("creates INATIVA without a date and PROGRAMADA with one, in the caller's company; empty strings are null", async () => {
    const res = await create({ name: "Natal", message1: "Olá {nome}", message2: "", companyId: w.other.companyId, status: "FINALIZADA", delivered: 99 });
    expect(res.status).toBe(200);
    expect(Campaign.parse(res.body)).toMatchObject({ companyId: w.cid, status: "INATIVA", message2: null, delivered: 0, editable: true, scheduledAt: null });
    const scheduled = await create(full({ scheduledAt: inHours(3), confirmation: true, confirmationMessage1: "Posso enviar?" }));
    expect(scheduled.body).toMatchObject({ status: "PROGRAMADA", confirmation: true, editable: true, tagListId: tagId });
  });

  it("refuses a name outside 2-50, a scheduled campaign without connection, audience or message, and another company's references", async () => {
    expect((await create({ name: "N" })).body).toMatchObject({ error: "ERR_VALIDATION", fields: [expect.objectContaining({ path: "name", message: "Too Short!" })] });
    expect((await create({ name: "x".repeat(51) })).body.fields[0].message).toBe("Too Long!");
    expect((await create({})).status).toBe(400);
    expect((await create({ name: "Sem público", message1: "Oi", whatsappId: w.wa, scheduledAt: inHours(2) })).body.error).toBe("ERR_CAMPAIGN_INCOMPLETE");
    expect((await create({ name: "Sem texto", whatsappId: w.wa, tagListId: tagId, scheduledAt: inHours(2) })).body.error).toBe("ERR_CAMPAIGN_INCOMPLETE");
    expect((await create({ name: "Data ruim", scheduledAt: "amanhã" })).status).toBe(400);
    // Ids the company does not have (another company's live in its own partition): refused.
    expect((await create({ name: "Tag alheia", tagListId: 999999 })).body).toMatchObject({ error: "ERR_VALIDATION", fields: [expect.objectContaining({ path: "tagListId" })] });
    expect((await create({ name: "Conexão alheia", whatsappId: 999999 })).body.fields[0].path).toBe("whatsappId");
    expect((await create({ name: "Lista", contactListId: 999999 })).body.fields[0].path).toBe("contactListId");
  });
});

describe("rights and isolation", () => {
  it("only admins reach campaigns and their settings: a user and a supervisor get 403, nothing written", async () => {
    const before = CampaignsPage.parse((await api("GET", "/api/campaigns", { token: w.admin.token })).body).count;
    for (const u of [ana(), sofia()]) {
      expect((await create({ name: "Não pode" }, u.token)).status).toBe(403);
      expect((await api("GET", "/api/campaigns", { token: u.token })).status).toBe(403);
      expect((await api("GET", "/api/campaign-settings", { token: u.token })).status).toBe(403);
      expect((await api("POST", "/api/campaign-settings", { token: u.token, body: { settings: { messageInterval: 5 } } })).status).toBe(403);
    }
    expect(CampaignsPage.parse((await api("GET", "/api/campaigns", { token: w.admin.token })).body).count).toBe(before);
  });

  it("another company sees, changes, starts and stops none of them (404), and its list is its own", async () => {
    const id = (await create(full())).body.id;
    const t = w.other.admin.token;
    for (const [method, path, body] of [
      ["GET", `/api/campaigns/${id}`],
      ["GET", `/api/campaigns/${id}/shippings`],
      ["PUT", `/api/campaigns/${id}`, { name: "Roubada" }],
      ["DELETE", `/api/campaigns/${id}`],
      ["POST", `/api/campaigns/${id}/cancel`],
      ["POST", `/api/campaigns/${id}/restart`],
      ["DELETE", `/api/campaigns/${id}/media-upload`],
    ] as const) {
      const res = await api(method, path, { token: t, ...(body ? { body } : {}) });
      expect([res.status, res.body.error], `${method} ${path}`).toEqual([404, "ERR_NO_CAMPAIGN_FOUND"]);
    }
    const up = await api("POST", `/api/campaigns/${id}/media-upload`, { token: t, ...multipartBody([{ field: "file", name: "a.png", type: "image/png", data: png }]) });
    expect(up.status).toBe(404);
    expect(CampaignsPage.parse((await api("GET", "/api/campaigns", { token: t })).body).records.map((c) => c.id)).not.toContain(id);
    expect((await getCampaign(w.cid, id))?.name).toBe("Natal");
  });

  it("a plan without campaigns gets 403 ERR_PLAN_FEATURE_DISABLED on every route", async () => {
    const off = await w.fresh({ planFlags: { useCampaigns: false } });
    for (const [method, path] of [
      ["GET", "/api/campaigns"],
      ["POST", "/api/campaigns"],
      ["GET", "/api/campaign-settings"],
    ] as const) {
      const res = await api(method, path, { token: off.admin.token, ...(method === "POST" ? { body: { name: "Natal" } } : {}) });
      expect([res.status, res.body.error]).toEqual([403, "ERR_PLAN_FEATURE_DISABLED"]);
    }
  });
});

describe("editability and status moves", () => {
  it("edits an INATIVA or far PROGRAMADA campaign; one starting within the hour or running is read-only (409)", async () => {
    const id = (await create(full())).body.id;
    const res = await api("PUT", `/api/campaigns/${id}`, { token: w.admin.token, body: { message2: "Oi {nome}, {cupom}", scheduledAt: inHours(2) } });
    expect(res.body).toMatchObject({ status: "PROGRAMADA", message2: "Oi {nome}, {cupom}", editable: true });
    const soon = await api("PUT", `/api/campaigns/${id}`, { token: w.admin.token, body: { scheduledAt: inHours(0.5) } });
    expect(soon.body).toMatchObject({ status: "PROGRAMADA", editable: false });
    const refused = await api("PUT", `/api/campaigns/${id}`, { token: w.admin.token, body: { name: "Tarde demais" } });
    expect([refused.status, refused.body.error]).toEqual([409, "ERR_CAMPAIGN_NOT_EDITABLE"]);
    expect((await getCampaign(w.cid, id))?.name).toBe("Natal");
    // Back to INATIVA is also an edit of a read-only one: refused.
    expect((await api("PUT", `/api/campaigns/${id}`, { token: w.admin.token, body: { scheduledAt: null } })).status).toBe(409);
  });

  it("cancel only while EM_ANDAMENTO, restart only while CANCELADA; a CANCELADA one still saves its messages", async () => {
    const id = (await create(full({ scheduledAt: inHours(0) }))).body.id;
    const early = await api("POST", `/api/campaigns/${id}/cancel`, { token: w.admin.token });
    expect([early.status, early.body.error]).toEqual([409, "ERR_CAMPAIGN_NOT_RUNNING"]);
    expect((await api("POST", `/api/campaigns/${id}/restart`, { token: w.admin.token })).body.error).toBe("ERR_CAMPAIGN_NOT_CANCELED");
    await runCampaignPlanner(w.cid, id, MONDAY_10, { send: async () => {} });
    expect((await api("GET", `/api/campaigns/${id}`, { token: w.admin.token })).body).toMatchObject({ status: "EM_ANDAMENTO", valid: 2, editable: false });
    expect((await api("DELETE", `/api/campaigns/${id}`, { token: w.admin.token })).body.error).toBe("ERR_CAMPAIGN_RUNNING");
    expect((await api("PUT", `/api/campaigns/${id}`, { token: w.admin.token, body: { name: "Agora" } })).body.error).toBe("ERR_CAMPAIGN_NOT_EDITABLE");
    const canceled = await api("POST", `/api/campaigns/${id}/cancel`, { token: w.admin.token });
    expect(canceled.body).toMatchObject({ status: "CANCELADA" });
    const saved = await api("PUT", `/api/campaigns/${id}`, { token: w.admin.token, body: { message1: "Corrigido {nome}", tagListId: null, scheduledAt: inHours(5) } });
    expect(saved.body).toMatchObject({ status: "CANCELADA", message1: "Corrigido {nome}", tagListId: tagId });
    expect((await api("POST", `/api/campaigns/${id}/cancel`, { token: w.admin.token })).status).toBe(409);
    const restarted = await api("POST", `/api/campaigns/${id}/restart`, { token: w.admin.token });
    expect(restarted.body).toMatchObject({ status: "EM_ANDAMENTO", pauseReason: null });
  });

  it("deletes a campaign that is not running, with its shippings; the report then 404s", async () => {
    const id = (await create(full())).body.id;
    const del = await api("DELETE", `/api/campaigns/${id}`, { token: w.admin.token });
    expect(del.status).toBe(200);
    expect((await api("GET", `/api/campaigns/${id}`, { token: w.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/campaigns/${id}/shippings`, { token: w.admin.token })).status).toBe(404);
  });
});

describe("the report", () => {
  it("lists one row per number with its status as the sends go out, and frames reach the admins only", async () => {
    const adminSock = await registerSocket(w.cid, { id: w.admin.id, profile: "admin" });
    const userSock = await registerSocket(w.cid, { id: ana().id, profile: "user" });
    w.capture.clear();
    const id = (await create(full({ scheduledAt: inHours(0) }))).body.id;
    const planned: Parameters<typeof sendShipping>[0][] = [];
    await runCampaignPlanner(w.cid, id, MONDAY_10, { send: async (ms) => void planned.push(...ms.map((m) => m.msg)), rand: () => 0 });
    const before = ShippingsPage.parse((await api("GET", `/api/campaigns/${id}/shippings`, { token: w.admin.token })).body);
    expect(before.records.map((s) => [s.name, s.status]).sort()).toEqual([["João", "queued"], ["Maria", "queued"]]);
    for (const m of planned) await sendShipping(m);
    const after = ShippingsPage.parse((await api("GET", `/api/campaigns/${id}/shippings`, { token: w.admin.token })).body);
    expect(after.records.map((s) => s.status)).toEqual(["delivered", "delivered"]);
    expect(after.records.every((s) => s.deliveredAt && s.message?.startsWith("Olá "))).toBe(true);
    const c = Campaign.parse((await api("GET", `/api/campaigns/${id}`, { token: w.admin.token })).body);
    expect({ status: c.status, delivered: c.delivered, valid: c.valid, done: !!c.completedAt }).toEqual({ status: "FINALIZADA", delivered: 2, valid: 2, done: true });
    const frames = w.capture.frames.filter((f) => f.event === `company-${w.cid}-campaign`);
    expect(frames.filter((f) => f.connectionId === userSock)).toEqual([]);
    expect(frames.filter((f) => f.connectionId === adminSock).map((f) => (f.data as { record?: { status: string } }).record?.status)).toContain("FINALIZADA");
  });
});

describe("media", () => {
  it("uploads, replaces and removes the campaign's file through the media port", async () => {
    const id = (await create(full())).body.id;
    const up = await api("POST", `/api/campaigns/${id}/media-upload`, { token: w.admin.token, ...multipartBody([{ field: "file", name: "promo.png", type: "image/png", data: png }]) });
    expect(up.status).toBe(200);
    const first = Campaign.parse(up.body);
    expect(first).toMatchObject({ mediaName: "promo.png" });
    expect(first.mediaPath).toMatch(new RegExp(`^media/${w.cid}/campaigns/${id}/`));
    expect(await headMedia(first.mediaPath!)).toBeTruthy();
    const none = await api("POST", `/api/campaigns/${id}/media-upload`, { token: w.admin.token, ...multipartBody([]) });
    expect(none.status).toBe(400);
    const del = await api("DELETE", `/api/campaigns/${id}/media-upload`, { token: w.admin.token });
    expect(del.body).toMatchObject({ mediaPath: null, mediaName: null });
    expect(await headMedia(first.mediaPath!)).toBeFalsy();
  });
});

describe("campaign settings", () => {
  it("answers the defaults, saves the intervals and variables, and refuses options outside the lists and duplicate keys", async () => {
    const fresh = await w.fresh({});
    expect(CampaignSettings.parse((await api("GET", "/api/campaign-settings", { token: fresh.admin.token })).body)).toEqual({ messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] });
    const saved = await api("POST", "/api/campaign-settings", { token: fresh.admin.token, body: { settings: { messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 120, variables: [{ key: "cupom", value: "BF10" }] } } });
    expect(saved.body).toEqual({ messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 120, variables: [{ key: "cupom", value: "BF10" }] });
    for (const settings of [
      { messageInterval: 7 },
      { greaterInterval: 121 },
      { variables: [{ key: "a", value: "1" }, { key: "a", value: "2" }] },
      { variables: [{ key: "nome", value: "x" }] },
    ]) {
      expect((await api("POST", "/api/campaign-settings", { token: fresh.admin.token, body: { settings } })).status, JSON.stringify(settings)).toBe(400);
    }
    expect((await api("GET", "/api/campaign-settings", { token: fresh.admin.token })).body.messageInterval).toBe(5);
    // Another company's settings are its own.
    expect((await api("GET", "/api/campaign-settings", { token: w.other.admin.token })).body.messageInterval).toBe(20);
  });
});
