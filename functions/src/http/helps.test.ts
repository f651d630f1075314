/**
 * Help videos through the real Lambda handlers: super users create, change and delete; admins, supervisors and agents
 * get 403 on every write and nothing changes; every profile reads; validation with the product's messages (a YouTube
 * address is stored as its code); helps are platform-wide, so another company's agent reads the very same list.
 */
import { describe, expect, it } from "vitest";
import { api, makeUser, type TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { listHelpItems } from "../../../shared/src/helps/repository.ts";
import { Help, HelpList, HelpsPage } from "../../../shared/src/helps/schema.ts";

const w = companyWorld({ agents: [{ name: "Ana" }, { name: "Sofia", profile: "supervisor" }], other: true, root: true });
const ana = () => w.agents[0];
const sofia = () => w.agents[1];
/** The platform's super user (an admin of its own company with the super flag). */
const superUser = async (): Promise<TestUser> => w.root;

let n = 0;
const fresh = (base: string) => `${base} ${++n}`;
const create = async (u: TestUser, body: Record<string, unknown>) => api("POST", "/api/helps", { token: u.token, body });
const list = async (u: TestUser) => HelpList.parse((await api("GET", "/api/helps/list", { token: u.token })).body);
const stored = async () => (await listHelpItems()).sort((a, b) => a.id - b.id);

describe("POST /api/helps", () => {
  it("lets a super user add a help: title, description and the video code, answered as stored", async () => {
    const res = await create(await superUser(), { title: "  Como transferir um atendimento ", description: "Passo a passo", video: "dQw4w9WgXcQ" });
    expect(res.status).toBe(200);
    expect(Help.parse(res.body)).toMatchObject({ id: expect.any(Number), title: "Como transferir um atendimento", description: "Passo a passo", video: "dQw4w9WgXcQ" });
    expect((await stored()).find((h) => h.id === res.body.id)).toMatchObject({ title: "Como transferir um atendimento", video: "dQw4w9WgXcQ" });
  });

  it("stores the code of a pasted YouTube address, and an empty description when none is given", async () => {
    const addresses = ["https://www.youtube.com/watch?v=abcDEF12345&t=42s", "youtu.be/abcDEF12345", "https://youtube.com/embed/abcDEF12345", "https://m.youtube.com/shorts/abcDEF12345"];
    for (const video of addresses) {
      const res = await create(await superUser(), { title: fresh("Endereço"), video });
      expect(res.status, video).toBe(200);
      expect(res.body, video).toMatchObject({ video: "abcDEF12345", description: "" });
    }
  });

  it("validates with the product's messages and writes nothing", async () => {
    const before = await stored();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ video: "dQw4w9WgXcQ" }, "title", "Obrigatório"],
      [{ title: "   ", video: "dQw4w9WgXcQ" }, "title", "Obrigatório"],
      [{ title: "x".repeat(101), video: "dQw4w9WgXcQ" }, "title", "Too Long!"],
      [{ title: "Sem vídeo" }, "video", "Obrigatório"],
      [{ title: "Vídeo vazio", video: " " }, "video", "Obrigatório"],
      [{ title: "Outro site", video: "https://vimeo.com/123456789" }, "video", "Código de vídeo inválido"],
      [{ title: "Código com espaço", video: "abc def 123" }, "video", "Código de vídeo inválido"],
      [{ title: "Injeção", video: "abc\"><script>" }, "video", "Código de vídeo inválido"],
      [{ title: "Longa", video: "dQw4w9WgXcQ", description: "d".repeat(1001) }, "description", "Too Long!"],
      [{ title: 42, video: "dQw4w9WgXcQ" }, "title", "Invalid input"],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(await superUser(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      expect(res.body.fields.find((f: any) => f.path === path)?.message, JSON.stringify(body)).toBe(message);
    }
    expect(await stored()).toEqual(before);
  });

  it("refuses an admin, a supervisor and an agent with 403, and nobody logged out with 401, writing nothing", async () => {
    const before = await stored();
    for (const u of [w.admin, sofia(), ana(), w.other.admin]) {
      const res = await create(u, { title: fresh("Não autorizado"), video: "dQw4w9WgXcQ" });
      expect(res.status, u.profile).toBe(403);
      expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
    }
    expect((await api("POST", "/api/helps", { body: { title: "Anônimo", video: "dQw4w9WgXcQ" } })).status).toBe(401);
    expect(await stored()).toEqual(before);
  });
});

describe("PUT /api/helps/{id}", () => {
  it("lets a super user change the given fields only", async () => {
    const h = (await create(await superUser(), { title: fresh("Antes"), description: "Texto", video: "dQw4w9WgXcQ" })).body;
    const res = await api("PUT", `/api/helps/${h.id}`, { token: (await superUser()).token, body: { title: "Depois", video: "https://youtu.be/zzzzzzzzzzz" } });
    expect(res.status).toBe(200);
    expect(Help.parse(res.body)).toMatchObject({ id: h.id, title: "Depois", description: "Texto", video: "zzzzzzzzzzz", createdAt: h.createdAt });
    expect(res.body.updatedAt >= h.updatedAt).toBe(true);
    expect((await stored()).find((x) => x.id === h.id)).toMatchObject({ title: "Depois", description: "Texto", video: "zzzzzzzzzzz" });
  });

  it("refuses the other profiles with 403 and leaves the help as it was; a bad body is 400; a missing help 404", async () => {
    const h = (await create(await superUser(), { title: fresh("Intocado"), video: "dQw4w9WgXcQ" })).body;
    for (const u of [w.admin, sofia(), ana()]) {
      const res = await api("PUT", `/api/helps/${h.id}`, { token: u.token, body: { title: "Mudado" } });
      expect(res.status, u.profile).toBe(403);
    }
    const bad = await api("PUT", `/api/helps/${h.id}`, { token: (await superUser()).token, body: { title: "", video: "vimeo.com/1" } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: any) => [f.path, f.message])).toEqual(expect.arrayContaining([["title", "Obrigatório"], ["video", "Código de vídeo inválido"]]));
    expect((await stored()).find((x) => x.id === h.id)).toEqual(h);
    const missing = await api("PUT", "/api/helps/999999", { token: (await superUser()).token, body: { title: "Fantasma" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "ERR_NO_HELP_FOUND" });
    expect((await stored()).some((x) => x.id === 999999)).toBe(false);
    expect((await api("PUT", "/api/helps/abc", { token: (await superUser()).token, body: { title: "x" } })).status).toBe(400);
  });
});

describe("DELETE /api/helps/{id}", () => {
  it("lets only a super user delete: the other profiles get 403 and the help stays", async () => {
    const h = (await create(await superUser(), { title: fresh("Apagável"), video: "dQw4w9WgXcQ" })).body;
    for (const u of [w.admin, sofia(), ana(), w.other.admin]) {
      expect((await api("DELETE", `/api/helps/${h.id}`, { token: u.token })).status, u.profile).toBe(403);
    }
    expect((await stored()).some((x) => x.id === h.id)).toBe(true);
    const res = await api("DELETE", `/api/helps/${h.id}`, { token: (await superUser()).token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Help deleted" });
    expect((await stored()).some((x) => x.id === h.id)).toBe(false);
    expect((await list(ana())).some((x) => x.id === h.id)).toBe(false);
    const again = await api("DELETE", `/api/helps/${h.id}`, { token: (await superUser()).token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: "ERR_NO_HELP_FOUND" });
  });
});

describe("GET /api/helps/list and GET /api/helps", () => {
  it("gives every profile the helps by title, and another company's agent the very same platform-wide list", async () => {
    const titles = ["Zebra: fechar atendimentos", "Árvore de filas", "Bot de boas-vindas"];
    for (const title of titles) await create(await superUser(), { title, video: "dQw4w9WgXcQ" });
    const outsider = await makeUser(w.other.companyId, { name: "Agente de outra empresa" });
    const expected = (await stored()).map((h) => h.id);
    const mine = await list(ana());
    expect(mine.map((h) => h.id).sort((a, b) => a - b)).toEqual(expected);
    const ours = mine.map((h) => h.title).filter((t) => titles.includes(t));
    expect(ours).toEqual(["Árvore de filas", "Bot de boas-vindas", "Zebra: fechar atendimentos"]);
    // Helps belong to no company: the other company's agent, its admin and every profile here read the same list.
    for (const u of [outsider, w.other.admin, w.admin, sofia(), await superUser()]) expect(await list(u), u.email).toEqual(mine);
    expect((await api("GET", "/api/helps/list")).status).toBe(401);
  });

  it("pages by 20 and searches the title without accents or case", async () => {
    for (let i = 0; i < 22; i++) await create(await superUser(), { title: `Página ${String(i).padStart(2, "0")}`, video: "dQw4w9WgXcQ" });
    const total = (await stored()).length;
    const first = HelpsPage.parse((await api("GET", "/api/helps", { token: ana().token })).body);
    expect(first).toMatchObject({ count: total, hasMore: true });
    expect(first.records).toHaveLength(20);
    const last = HelpsPage.parse((await api("GET", `/api/helps?pageNumber=${Math.ceil(total / 20)}`, { token: w.other.admin.token })).body);
    expect(last.hasMore).toBe(false);
    expect(last.records).toHaveLength(total - 20 * (Math.ceil(total / 20) - 1));
    const found = HelpsPage.parse((await api("GET", "/api/helps?searchParam=PAGINA%202", { token: sofia().token })).body);
    expect(found.records.map((h) => h.title)).toEqual(["Página 20", "Página 21"]);
    expect(found).toMatchObject({ count: 2, hasMore: false });
    expect((await api("GET", "/api/helps?pageNumber=0", { token: ana().token })).status).toBe(400);
  });
});
