/**
 * File lists through the real Lambda handlers: validation ('nome muito curto', message required) with nothing
 * written, admins only, another company's list answered as missing on every route, options kept or removed on an
 * edit, and each option's file stored, replaced and deleted through the media port.
 */
import { describe, expect, it } from "vitest";
import { api, multipartBody, type TestUser } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws } from "../../../test/world.ts";
import { headMedia } from "../../../shared/src/storage/media.ts";
import { FileList, FileListsPage } from "../../../shared/src/fileLists/schema.ts";

useLocalAws({ bucket: "atende-file-lists-test" });
const w = companyWorld({ agents: [{ name: "Ana" }, { name: "Sofia", profile: "supervisor" }], other: true });

const create = (u: TestUser, body: Record<string, unknown>) => api("POST", "/api/files", { token: u.token, body });
const pdf = Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
const upload = (u: TestUser, id: number, optionId: number, name = "tabela de preços.pdf", data = pdf) =>
  api("POST", `/api/files/uploadList/${id}?fileId=${optionId}`, { token: u.token, ...multipartBody([{ field: "file", name, type: "application/pdf", data }]) });
const total = async () => FileListsPage.parse((await api("GET", "/api/files", { token: w.admin.token })).body).count;

describe("file lists", () => {
  it("creates a list with its options, stores each option's file, and replaces and deletes files with the list", async () => {
    const res = await create(w.admin, { name: "Catálogo", message: "Veja nossos preços", options: [{ name: "Tabela" }, { name: "Foto", mediaType: "image" }], companyId: w.other.companyId });
    expect(res.status).toBe(200);
    const list = FileList.parse(res.body);
    expect(list).toMatchObject({ companyId: w.cid, name: "Catálogo", message: "Veja nossos preços" });
    expect(list.options.map((o) => [o.id, o.name, o.path])).toEqual([[1, "Tabela", null], [2, "Foto", null]]);
    const first = FileList.parse((await upload(w.admin, list.id, 1)).body);
    const key1 = first.options[0]!.mediaPath!;
    expect(first.options[0]).toMatchObject({ path: "tabela de preços.pdf", mediaMime: "application/pdf", mediaType: "application" });
    expect(key1.startsWith(`media/${w.cid}/file-lists/${list.id}/`)).toBe(true);
    const second = FileList.parse((await upload(w.admin, list.id, 1, "nova.pdf")).body);
    expect(second.options[0]!.path).toBe("nova.pdf");
    expect(await headMedia(key1)).toBeNull();
    // An edit that leaves option 1 out removes it and deletes its file; option 2 is kept.
    const key2 = second.options[0]!.mediaPath!;
    const edited = FileList.parse((await api("PUT", `/api/files/${list.id}`, { token: w.admin.token, body: { name: "Catálogo 2", message: "Novo", options: [{ id: 2, name: "Foto" }, { name: "Vídeo" }] } })).body);
    expect(edited.options.map((o) => [o.id, o.name])).toEqual([[2, "Foto"], [3, "Vídeo"]]);
    expect(await headMedia(key2)).toBeNull();
    expect((await upload(w.admin, list.id, 1)).body).toEqual({ error: "ERR_NO_FILE_LIST_FOUND" });
    const withFile = FileList.parse((await upload(w.admin, list.id, 3, "video.pdf")).body);
    expect((await api("DELETE", `/api/files/${list.id}`, { token: w.admin.token })).status).toBe(200);
    expect(await headMedia(withFile.options[1]!.mediaPath!)).toBeNull();
    expect((await api("GET", `/api/files/${list.id}`, { token: w.admin.token })).body).toEqual({ error: "ERR_NO_FILE_LIST_FOUND" });
  });

  it("validates the name ('nome muito curto') and the message (required), writing nothing", async () => {
    const before = await total();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "ab", message: "Olá" }, "name", "nome muito curto"],
      [{ message: "Olá" }, "name", "Required"],
      [{ name: "Catálogo" }, "message", "Required"],
      [{ name: "Catálogo", message: "   " }, "message", "Required"],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(w.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields).toEqual([expect.objectContaining({ path, message })]);
    }
    expect(await total()).toBe(before);
  });

  it("is the admins' only: users and supervisors get 403 and change nothing", async () => {
    const list = FileList.parse((await create(w.admin, { name: "Só admin", message: "x", options: [{ name: "A" }] })).body);
    for (const u of w.agents) {
      expect((await api("GET", "/api/files", { token: u.token })).status).toBe(403);
      expect((await create(u, { name: "Minha lista", message: "x" })).status).toBe(403);
      expect((await api("PUT", `/api/files/${list.id}`, { token: u.token, body: { name: "Trocada", message: "x" } })).status).toBe(403);
      expect((await api("DELETE", `/api/files/${list.id}`, { token: u.token })).status).toBe(403);
      expect((await upload(u, list.id, 1)).status).toBe(403);
    }
    expect(FileList.parse((await api("GET", `/api/files/${list.id}`, { token: w.admin.token })).body)).toMatchObject({ name: "Só admin", options: [{ path: null }] });
  });

  it("answers another company's list as missing on every route and leaves it untouched", async () => {
    const list = FileList.parse((await create(w.admin, { name: "Privada", message: "x", options: [{ name: "A" }] })).body);
    const x = w.other.admin;
    expect((await api("GET", `/api/files/${list.id}`, { token: x.token })).status).toBe(404);
    expect((await api("PUT", `/api/files/${list.id}`, { token: x.token, body: { name: "Roubada", message: "x" } })).status).toBe(404);
    expect((await api("DELETE", `/api/files/${list.id}`, { token: x.token })).status).toBe(404);
    expect((await upload(x, list.id, 1)).status).toBe(404);
    expect(FileListsPage.parse((await api("GET", "/api/files?searchParam=privada", { token: x.token })).body).files).toEqual([]);
    expect(FileList.parse((await api("GET", `/api/files/${list.id}`, { token: w.admin.token })).body)).toMatchObject({ name: "Privada", options: [{ path: null }] });
  });
});
