/**
 * Announcements through the real Lambda handlers (docs/product/announcements.md): writes only for super users (every
 * other profile of any company gets 403, nothing written), reads for every user of every company, inactive ones
 * hidden from users who are not super, priority order, the image upload (png/jpg/jpeg only), and the live frame to
 * every company's sockets through the platform channel.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, makeCompany, makeUser, multipartBody, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws } from "../../../test/world.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";
import { getAnnouncement } from "../../../shared/src/announcements/repository.ts";
import { Announcement, AnnouncementsPage } from "../../../shared/src/announcements/schema.ts";
import { headMedia } from "../../../shared/src/storage/media.ts";

useLocalAws({ bucket: "atende-announcements-test" });
const w = companyWorld({ agents: [{ name: "Ana" }, { name: "Sofia", profile: "supervisor" }], other: true });
let root: { companyId: number; admin: TestUser };
beforeAll(async () => {
  root = await makeCompany({ adminSuper: true });
});

let n = 0;
const title = (base: string) => `${base} ${++n}`;
const create = (u: TestUser, body: Record<string, unknown>) => api("POST", "/api/announcements", { token: u.token, body });
const list = async (u: TestUser, query = "") => AnnouncementsPage.parse((await api("GET", `/api/announcements${query}`, { token: u.token })).body);
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

describe("writes", () => {
  it("only super users write: admin, supervisor and user of any company get 403 and nothing changes", async () => {
    const a = Announcement.parse((await create(root.admin, { title: title("Manutenção"), text: "Sábado às 22h" })).body);
    expect(a).toMatchObject({ priority: 3, status: true, mediaPath: null, mediaUrl: null });
    for (const u of [w.admin, w.agents[0], w.agents[1], w.other.admin]) {
      const tries = [
        await create(u, { title: "x", text: "y" }),
        await api("PUT", `/api/announcements/${a.id}`, { token: u.token, body: { title: "hack" } }),
        await api("DELETE", `/api/announcements/${a.id}`, { token: u.token }),
        await api("POST", `/api/announcements/${a.id}/media-upload`, { token: u.token, ...multipartBody([{ field: "file", name: "a.png", type: "image/png", data: png }]) }),
        await api("DELETE", `/api/announcements/${a.id}/media-upload`, { token: u.token }),
      ];
      for (const res of tries) expect(res.status).toBe(403);
    }
    expect(await getAnnouncement(a.id)).toMatchObject({ title: a.title, mediaPath: null });
  });

  it("requires title and text, takes priority 1-3, and answers 404 for an unknown id", async () => {
    for (const body of [{ text: "y" }, { title: " ", text: "y" }, { title: "x" }, { title: "x", text: "y", priority: 4 }, { title: "x", text: "y", status: "talvez" }]) {
      const res = await create(root.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    expect((await api("PUT", "/api/announcements/987654", { token: root.admin.token, body: { title: "x" } })).body).toEqual({ error: "ERR_NO_ANNOUNCEMENT_FOUND" });
  });

  it("stores a png/jpg/jpeg image through the media port and refuses other types", async () => {
    const a = Announcement.parse((await create(root.admin, { title: title("Com foto"), text: "veja", priority: "1" })).body);
    const bad = await api("POST", `/api/announcements/${a.id}/media-upload`, { token: root.admin.token, ...multipartBody([{ field: "file", name: "a.gif", type: "image/gif", data: png }]) });
    expect(bad.status).toBe(400);
    const ok = Announcement.parse(
      (await api("POST", `/api/announcements/${a.id}/media-upload`, { token: root.admin.token, ...multipartBody([{ field: "file", name: "aviso.png", type: "image/png", data: png }]) })).body,
    );
    expect(ok.mediaName).toBe("aviso.png");
    expect(ok.mediaPath).toMatch(new RegExp(`^media/${root.companyId}/announcements/${a.id}/`));
    expect(ok.mediaUrl).toMatch(/^http/);
    expect(await headMedia(ok.mediaPath as string)).toBeTruthy();
    const seenByOther = Announcement.parse((await api("GET", `/api/announcements/${a.id}`, { token: w.other.admin.token })).body);
    expect(seenByOther.mediaUrl).toMatch(/^http/);
    const removed = Announcement.parse((await api("DELETE", `/api/announcements/${a.id}/media-upload`, { token: root.admin.token })).body);
    expect(removed.mediaPath).toBeNull();
    expect(await headMedia(ok.mediaPath as string)).toBeNull();
  });
});

describe("reads", () => {
  it("every user of every company reads the active ones, highest priority and newest first; inactive only for super", async () => {
    const low = Announcement.parse((await create(root.admin, { title: title("Baixa"), text: "t", priority: 3 })).body);
    const high = Announcement.parse((await create(root.admin, { title: title("Alta"), text: "t", priority: 1 })).body);
    const mid = Announcement.parse((await create(root.admin, { title: title("Média"), text: "t", priority: 2 })).body);
    const off = Announcement.parse((await create(root.admin, { title: title("Desligado"), text: "t", status: false })).body);
    const fresh = await makeCompany();
    const agent = await makeUser(fresh.companyId, { name: "Novo" });
    for (const u of [agent, w.agents[0], w.other.admin]) {
      const ids = (await list(u)).records.map((r) => r.id);
      expect(ids).toEqual(expect.arrayContaining([high.id, mid.id, low.id]));
      expect(ids.indexOf(high.id)).toBeLessThan(ids.indexOf(mid.id));
      expect(ids.indexOf(mid.id)).toBeLessThan(ids.indexOf(low.id));
      expect(ids).not.toContain(off.id);
      expect((await api("GET", `/api/announcements/${off.id}`, { token: u.token })).body).toEqual({ error: "ERR_NO_ANNOUNCEMENT_FOUND" });
    }
    expect((await list(root.admin)).records.map((r) => r.id)).toContain(off.id);
    await api("PUT", `/api/announcements/${high.id}`, { token: root.admin.token, body: { status: false } });
    expect((await list(agent)).records.map((r) => r.id)).not.toContain(high.id);
    expect((await list(agent, `?searchParam=${encodeURIComponent(mid.title)}`)).records.map((r) => r.id)).toEqual([mid.id]);
  });

  it("sends each company's sockets a company-{its id}-announcement frame, inactive ones as a delete to non-super users", async () => {
    const mine = await registerSocket(w.cid, { id: w.agents[0].id, profile: "user" });
    const theirs = await registerSocket(w.other.companyId, { id: w.other.admin.id, profile: "admin" });
    const superSock = await registerSocket(root.companyId, { id: root.admin.id, profile: "admin", super: true });
    w.capture.clear();
    const a = Announcement.parse((await create(root.admin, { title: title("Ao vivo"), text: "agora", priority: 1 })).body);
    const frameOf = (sock: string) => w.capture.frames.find((f) => f.connectionId === sock);
    expect(frameOf(mine)).toEqual({ connectionId: mine, event: `company-${w.cid}-announcement`, data: { action: "create", record: a } });
    expect(frameOf(theirs)?.event).toBe(`company-${w.other.companyId}-announcement`);
    expect(frameOf(superSock)?.event).toBe(`company-${root.companyId}-announcement`);

    w.capture.clear();
    await api("PUT", `/api/announcements/${a.id}`, { token: root.admin.token, body: { status: false } });
    expect(frameOf(mine)?.data).toEqual({ action: "delete", id: a.id });
    expect(frameOf(superSock)?.data).toMatchObject({ action: "update", record: { id: a.id, status: false } });
  });
});
