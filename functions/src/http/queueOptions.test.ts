/**
 * Queue options area through the real Lambda handlers (docs/product/queues.md#options): the
 * nested tree, positions and reordering, subtree deletion, media under the company's prefix, admin-only access,
 * tenant isolation and bad bodies that write nothing. Also the queue's own media routes and option cleanup when the
 * queue is deleted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, makeUser, multipartBody } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { startS3, type S3Handle } from "../../../infra/local/src/s3.ts";
import { resetConfig } from "../../../shared/src/config.ts";
import { listQueueOptions } from "../../../shared/src/queues/options/repository.ts";
import { getMedia, headMedia, resetS3 } from "../../../shared/src/storage/media.ts";

const w = companyWorld();

let s3: S3Handle;
let s3Dir: string;
beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), "atende-s3-"));
  process.env.MEDIA_BUCKET = "atende-media-test";
  s3 = await startS3({ directory: s3Dir, bucket: "atende-media-test", origins: ["http://localhost"], accessKeyId: process.env.AWS_ACCESS_KEY_ID });
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  resetConfig();
  resetS3();
});
afterAll(async () => {
  await s3?.stop();
  rmSync(s3Dir, { recursive: true, force: true });
});

/** One file in `field`, or (without a file) a form with only a caption. */
const multipart = (field: string, file?: { name: string; type: string; data: Buffer }) => (file ? multipartBody([{ ...file, field }]) : multipartBody([], { body: "nada" }));

let colorN = 0;
const nextColor = () => `#${(0x100000 + ++colorN * 4099).toString(16).slice(-6)}`;
async function newQueue(token: string, name = "Suporte") {
  const res = await api("POST", "/api/queue", { token, body: { name, color: nextColor() } });
  expect(res.status).toBe(200);
  return res.body as { id: number; companyId: number };
}
const addOption = (token: string, body: Record<string, unknown>) => api("POST", "/api/queue-options", { token, body });
const tree = async (token: string, queueId: number, parentId?: number) =>
  (await api("GET", `/api/queue-options?queueId=${queueId}${parentId === undefined ? "" : `&parentId=${parentId}`}`, { token })).body as any[];
const shape = (nodes: any[]): any[] => nodes.map((n) => ({ option: n.option, title: n.title, children: shape(n.children) }));

describe("queue options: the nested tree", () => {
  it("creates options on two levels, numbers siblings 1..n and answers the ordered tree", async () => {
    const { admin } = await w.fresh();
    const q = await newQueue(admin.token);
    const fin = await addOption(admin.token, { queueId: q.id, parentId: -1, title: "Financeiro", message: "Escolha:" });
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({ queueId: q.id, parentId: null, title: "Financeiro", message: "Escolha:", option: "1", children: [] });
    const tec = await addOption(admin.token, { queueId: q.id, title: "Técnico" });
    expect(tec.body.option).toBe("2");
    await addOption(admin.token, { queueId: q.id, parentId: fin.body.id, title: "Boleto", message: "Segue o boleto" });
    await addOption(admin.token, { queueId: q.id, parentId: fin.body.id, title: "Pix" });
    expect(shape(await tree(admin.token, q.id))).toEqual([
      { option: "1", title: "Financeiro", children: [{ option: "1", title: "Boleto", children: [] }, { option: "2", title: "Pix", children: [] }] },
      { option: "2", title: "Técnico", children: [] },
    ]);
    // -1 is the top level; a parent id gives its children.
    expect(shape(await tree(admin.token, q.id, -1))).toEqual(shape(await tree(admin.token, q.id)));
    expect((await tree(admin.token, q.id, fin.body.id)).map((n) => n.title)).toEqual(["Boleto", "Pix"]);
  });

  it("inserts at a given position and moves an option with PUT, renumbering its siblings", async () => {
    const { admin } = await w.fresh();
    const q = await newQueue(admin.token);
    const a = await addOption(admin.token, { queueId: q.id, title: "A" });
    await addOption(admin.token, { queueId: q.id, title: "B" });
    await addOption(admin.token, { queueId: q.id, title: "C" });
    await addOption(admin.token, { queueId: q.id, title: "Primeiro", option: "1" });
    expect((await tree(admin.token, q.id)).map((n) => `${n.option}${n.title}`)).toEqual(["1Primeiro", "2A", "3B", "4C"]);
    const moved = await api("PUT", `/api/queue-options/${a.body.id}`, { token: admin.token, body: { option: "4", title: "A!" } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ title: "A!", option: "4" });
    expect((await tree(admin.token, q.id)).map((n) => `${n.option}${n.title}`)).toEqual(["1Primeiro", "2B", "3C", "4A!"]);
    // A position past the end goes last.
    await api("PUT", `/api/queue-options/${a.body.id}`, { token: admin.token, body: { option: "1" } });
    expect((await tree(admin.token, q.id)).map((n) => n.title)).toEqual(["A!", "Primeiro", "B", "C"]);
  });

  it("deletes an option with its whole subtree and closes the gap among siblings", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await newQueue(admin.token);
    const one = await addOption(admin.token, { queueId: q.id, title: "Um" });
    await addOption(admin.token, { queueId: q.id, title: "Dois" });
    const child = await addOption(admin.token, { queueId: q.id, parentId: one.body.id, title: "Filho" });
    await addOption(admin.token, { queueId: q.id, parentId: child.body.id, title: "Neto" });
    const res = await api("DELETE", `/api/queue-options/${one.body.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(shape(await tree(admin.token, q.id))).toEqual([{ option: "1", title: "Dois", children: [] }]);
    expect((await listQueueOptions(companyId, q.id)).map((o) => o.title)).toEqual(["Dois"]);
    expect((await api("PUT", `/api/queue-options/${child.body.id}`, { token: admin.token, body: { title: "x" } })).status).toBe(404);
  });

  it("deleting the queue deletes its options", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await newQueue(admin.token);
    const o = await addOption(admin.token, { queueId: q.id, title: "Um" });
    await addOption(admin.token, { queueId: q.id, parentId: o.body.id, title: "Filho" });
    expect((await api("DELETE", `/api/queue/${q.id}`, { token: admin.token })).status).toBe(200);
    expect(await listQueueOptions(companyId, q.id)).toEqual([]);
    expect((await api("PUT", `/api/queue-options/${o.body.id}`, { token: admin.token, body: { title: "x" } })).status).toBe(404);
  });
});

describe("queue options: bad input and access", () => {
  it("answers 400 to bad bodies and queries, writing nothing", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await newQueue(admin.token);
    for (const body of [{ queueId: q.id }, { queueId: q.id, title: "" }, { title: "Sem fila" }, { queueId: q.id, title: "x", option: "zero" }, { queueId: q.id, title: "x", parentId: "abc" }]) {
      const res = await addOption(admin.token, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
    }
    expect((await api("GET", "/api/queue-options", { token: admin.token })).status).toBe(400);
    const o = await addOption(admin.token, { queueId: q.id, title: "Ok" });
    expect((await api("PUT", `/api/queue-options/${o.body.id}`, { token: admin.token, body: { title: "", message: 5 } })).status).toBe(400);
    expect((await api("POST", "/api/queue-options", { token: admin.token, rawBody: Buffer.from("{nope"), contentType: "application/json" })).status).toBe(400);
    expect((await listQueueOptions(companyId, q.id)).map((o) => o.title)).toEqual(["Ok"]);
  });

  it("refuses a parent of another queue and an unknown queue with 404, writing nothing", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q1 = await newQueue(admin.token, "Um");
    const q2 = await newQueue(admin.token, "Dois");
    const p = await addOption(admin.token, { queueId: q1.id, title: "Pai" });
    const res = await addOption(admin.token, { queueId: q2.id, parentId: p.body.id, title: "Filho" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("ERR_NO_QUEUE_OPTION_FOUND");
    expect((await addOption(admin.token, { queueId: 999999, title: "x" })).body.error).toBe("ERR_NO_QUEUE_FOUND");
    expect(await listQueueOptions(companyId, q2.id)).toEqual([]);
  });

  it("answers 403 to agents on every route and changes nothing", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId);
    const q = await newQueue(admin.token);
    const o = await addOption(admin.token, { queueId: q.id, title: "Um" });
    const png = multipart("medias", { name: "a.png", type: "image/png", data: Buffer.from("89504e47", "hex") });
    const calls = [
      api("GET", `/api/queue-options?queueId=${q.id}`, { token: agent.token }),
      addOption(agent.token, { queueId: q.id, title: "Dois" }),
      api("PUT", `/api/queue-options/${o.body.id}`, { token: agent.token, body: { title: "x" } }),
      api("DELETE", `/api/queue-options/${o.body.id}`, { token: agent.token }),
      api("POST", `/api/queue-options/${o.body.id}/media-upload`, { token: agent.token, ...png }),
      api("DELETE", `/api/queue-options/${o.body.id}/media-upload`, { token: agent.token }),
      api("POST", `/api/queue/${q.id}/media-upload`, { token: agent.token, ...png }),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBe(403);
    expect(shape(await tree(admin.token, q.id))).toEqual([{ option: "1", title: "Um", children: [] }]);
  });

  it("another company's admin gets 404 on every route and sees nothing", async () => {
    const a = await w.fresh();
    const b = await w.fresh();
    const q = await newQueue(a.admin.token);
    const o = await addOption(a.admin.token, { queueId: q.id, title: "Segredo" });
    const png = multipart("medias", { name: "a.png", type: "image/png", data: Buffer.from("89504e47", "hex") });
    const calls = [
      api("GET", `/api/queue-options?queueId=${q.id}`, { token: b.admin.token }),
      addOption(b.admin.token, { queueId: q.id, title: "Invasor" }),
      addOption(b.admin.token, { queueId: q.id, parentId: o.body.id, title: "Invasor" }),
      api("PUT", `/api/queue-options/${o.body.id}`, { token: b.admin.token, body: { title: "Invasor" } }),
      api("DELETE", `/api/queue-options/${o.body.id}`, { token: b.admin.token }),
      api("POST", `/api/queue-options/${o.body.id}/media-upload`, { token: b.admin.token, ...png }),
      api("DELETE", `/api/queue-options/${o.body.id}/media-upload`, { token: b.admin.token }),
      api("POST", `/api/queue/${q.id}/media-upload`, { token: b.admin.token, ...png }),
      api("DELETE", `/api/queue/${q.id}/media-upload`, { token: b.admin.token }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain("Segredo");
    }
    expect(shape(await tree(a.admin.token, q.id))).toEqual([{ option: "1", title: "Segredo", children: [] }]);
  });
});

describe("media uploads", () => {
  it("stores an option's media under the company's prefix, and removes it from the option", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await newQueue(admin.token);
    const o = await addOption(admin.token, { queueId: q.id, title: "Catálogo" });
    const data = Buffer.from("%PDF-1.4 catálogo");
    const res = await api("POST", `/api/queue-options/${o.body.id}/media-upload`, { token: admin.token, ...multipart("file", { name: "catalogo.pdf", type: "application/pdf", data }) });
    expect(res.status).toBe(200);
    expect(res.body.mediaName).toBe("catalogo.pdf");
    expect(res.body.mediaPath.startsWith(`media/${companyId}/queue-options/${o.body.id}/`)).toBe(true);
    expect((await getMedia(res.body.mediaPath)).equals(data)).toBe(true);
    expect((await tree(admin.token, q.id))[0].mediaName).toBe("catalogo.pdf");
    const cleared = await api("DELETE", `/api/queue-options/${o.body.id}/media-upload`, { token: admin.token });
    expect(cleared.body).toMatchObject({ mediaPath: null, mediaName: null, title: "Catálogo" });
  });

  it("stores a queue's media, replaces it, clears it, and refuses an upload without a file", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const q = await newQueue(admin.token);
    const up = await api("POST", `/api/queue/${q.id}/media-upload`, { token: admin.token, ...multipart("medias", { name: "boas-vindas.png", type: "image/png", data: Buffer.from("89504e47", "hex") }) });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ id: q.id, mediaName: "boas-vindas.png" });
    expect(up.body.mediaPath.startsWith(`media/${companyId}/queues/${q.id}/`)).toBe(true);
    const empty = await api("POST", `/api/queue/${q.id}/media-upload`, { token: admin.token, ...multipart("medias") });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe("ERR_QUEUE_MEDIA_REQUIRED");
    expect((await api("GET", `/api/queue/${q.id}`, { token: admin.token })).body.mediaName).toBe("boas-vindas.png");
    const del = await api("DELETE", `/api/queue/${q.id}/media-upload`, { token: admin.token });
    expect(del.body).toMatchObject({ mediaPath: null, mediaName: null });
  });
});

describe("replaced and removed media leave no object behind", () => {
  const pdf = (name: string, text: string) => multipart("file", { name, type: "application/pdf", data: Buffer.from(`%PDF-1.4 ${text}`) });
  const gone = async (key: string) => (await headMedia(key)) === null;

  it("records an option's media size and type, and deletes the old object when the media is replaced, removed or its option deleted", async () => {
    const { admin } = await w.fresh();
    const q = await newQueue(admin.token);
    const parent = await addOption(admin.token, { queueId: q.id, title: "Planos" });
    const child = await addOption(admin.token, { queueId: q.id, parentId: parent.body.id, title: "Tabela" });
    const first = await api("POST", `/api/queue-options/${child.body.id}/media-upload`, { token: admin.token, ...pdf("tabela-2025.pdf", "primeira") });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mediaName: "tabela-2025.pdf", mediaSize: Buffer.from("%PDF-1.4 primeira").length, mediaMime: "application/pdf" });
    const second = await api("POST", `/api/queue-options/${child.body.id}/media-upload`, { token: admin.token, ...pdf("tabela-2026.pdf", "segunda versão") });
    expect(second.body.mediaPath).not.toBe(first.body.mediaPath);
    expect(await gone(first.body.mediaPath)).toBe(true);
    expect((await getMedia(second.body.mediaPath)).toString()).toBe("%PDF-1.4 segunda versão");

    await api("DELETE", `/api/queue-options/${child.body.id}/media-upload`, { token: admin.token });
    expect(await gone(second.body.mediaPath)).toBe(true);

    // Deleting an option deletes the media of its whole subtree.
    const third = await api("POST", `/api/queue-options/${child.body.id}/media-upload`, { token: admin.token, ...pdf("tabela.pdf", "terceira") });
    const own = await api("POST", `/api/queue-options/${parent.body.id}/media-upload`, { token: admin.token, ...pdf("planos.pdf", "planos") });
    expect(await gone(third.body.mediaPath)).toBe(false);
    expect((await api("DELETE", `/api/queue-options/${parent.body.id}`, { token: admin.token })).status).toBe(200);
    expect(await gone(third.body.mediaPath)).toBe(true);
    expect(await gone(own.body.mediaPath)).toBe(true);
  });

  it("deletes a queue's old media object when replaced or removed, and its options' media with the queue", async () => {
    const { admin } = await w.fresh();
    const q = await newQueue(admin.token, "Vendas");
    const png = (name: string, hex: string) => multipart("medias", { name, type: "image/png", data: Buffer.from(hex, "hex") });
    const a = await api("POST", `/api/queue/${q.id}/media-upload`, { token: admin.token, ...png("a.png", "89504e4701") });
    expect(a.body).toMatchObject({ mediaSize: 5, mediaMime: "image/png" });
    const b = await api("POST", `/api/queue/${q.id}/media-upload`, { token: admin.token, ...png("b.png", "89504e470203") });
    expect(await gone(a.body.mediaPath)).toBe(true);
    expect(await gone(b.body.mediaPath)).toBe(false);
    await api("DELETE", `/api/queue/${q.id}/media-upload`, { token: admin.token });
    expect(await gone(b.body.mediaPath)).toBe(true);

    const c = await api("POST", `/api/queue/${q.id}/media-upload`, { token: admin.token, ...png("c.png", "89504e4704") });
    const o = await addOption(admin.token, { queueId: q.id, title: "Catálogo" });
    const om = await api("POST", `/api/queue-options/${o.body.id}/media-upload`, { token: admin.token, ...pdf("catalogo.pdf", "catálogo") });
    expect((await api("DELETE", `/api/queue/${q.id}`, { token: admin.token })).status).toBe(200);
    expect(await gone(c.body.mediaPath)).toBe(true);
    expect(await gone(om.body.mediaPath)).toBe(true);
  });
});
