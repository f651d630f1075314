import { describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { getContact } from "../../../shared/src/contacts/service.ts";
import { settleDeferred } from "../../../shared/src/events/index.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";

const w = companyWorld({ agents: [{}], other: true });

const body = (name: string, number: string, extra: Record<string, unknown> = {}) => ({ name, number, email: "", ...extra });

describe("POST /api/contacts", () => {
  it("creates a contact with digits only and announces it to the company", async () => {
    const sock = await registerSocket(w.cid, { id: w.agents[0].id, profile: "user" });
    w.capture.clear();
    const res = await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Joana Dark", "+55 (11) 98888-0001", { email: "joana@ex.com", extraInfo: [{ name: "CPF", value: "123" }] }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Joana Dark", number: "5511988880001", email: "joana@ex.com" });
    expect(res.body.extraInfo[0]).toMatchObject({ name: "CPF", value: "123" });
    expect(w.capture.frames.some((f) => f.connectionId === sock && f.event === `company-${w.cid}-contact` && f.data.action === "create" && f.data.contact.id === res.body.id)).toBe(true);
  });

  it("answers 409 ERR_DUPLICATED_CONTACT for a number the company already has, but not for another company", async () => {
    await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Primeiro", "5511988880002") });
    const dup = await api("POST", "/api/contacts", { token: w.admin.token, body: body("Segundo", "55 11 98888-0002") });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe("ERR_DUPLICATED_CONTACT");
    expect((await api("POST", "/api/contacts", { token: w.other.admin.token, body: body("Outro", "5511988880002") })).status).toBe(200);
  });

  it("takes no id for refused contacts: after refusals the next contact gets the next number", async () => {
    const first = await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Numerado", "5511988880077") });
    expect(first.status).toBe(200);
    const refused = [
      await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Repetido", "5511988880077") }),
      await api("POST", "/api/contacts", { token: w.admin.token, body: body("Repetido", "+55 11 98888-0077") }),
      await api("POST", "/api/contacts", { token: w.admin.token, body: body("Curto", "1234") }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 409, 400]);
    expect((await api("POST", "/api/contacts", { token: w.admin.token, body: body("Seguinte", "5511988880078") })).body.id).toBe(first.body.id + 1);
  });

  it("validates name, number and email", async () => {
    expect((await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("J", "5511988880003") })).status).toBe(400);
    expect((await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Jo", "1234") })).status).toBe(400);
    expect((await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Jo", "abcdefghij") })).status).toBe(400);
    expect((await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Jo", "5511988880003", { email: "nope" }) })).body.fields[0].message).toBe("Invalid email");
    expect((await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("x".repeat(51), "5511988880003") })).body.fields[0].message).toBe("Too Long!");
  });
});

describe("GET /api/contacts", () => {
  it("searches by accent-insensitive name prefix or number prefix from 3 characters", async () => {
    const c = await w.fresh();
    for (const [n, num] of [["Élida Souza", "5511970000001"], ["Elias", "5521970000002"], ["Zeca", "5511970000003"]]) {
      await api("POST", "/api/contacts", { token: c.admin.token, body: body(n, num) });
    }
    const byName = await api("GET", "/api/contacts?searchParam=eli", { token: c.admin.token });
    expect(byName.body.contacts.map((x: any) => x.name)).toEqual(["Elias", "Élida Souza"]);
    expect(byName.body).toMatchObject({ count: 2, hasMore: false });
    const byNumber = await api("GET", "/api/contacts?searchParam=551197", { token: c.admin.token });
    expect(byNumber.body.contacts.map((x: any) => x.name).sort()).toEqual(["Zeca", "Élida Souza"]);
    const short = await api("GET", "/api/contacts?searchParam=el", { token: c.admin.token });
    expect(short.body.contacts).toHaveLength(3);
    const list = await api("GET", "/api/contacts/list", { token: c.admin.token });
    expect(list.body).toHaveLength(3);
    const theirs = await api("GET", "/api/contacts?searchParam=eli", { token: w.other.admin.token });
    expect(theirs.body.contacts).toEqual([]);
  });
});

describe("GET, PUT, DELETE /api/contacts/{id}", () => {
  it("shows and edits a contact of the company, and 404s for other companies without changing it", async () => {
    const created = await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Karla", "5511988880010") });
    const id = created.body.id;
    expect((await api("GET", `/api/contacts/${id}`, { token: w.agents[0].token })).body.name).toBe("Karla");
    expect((await api("GET", `/api/contacts/${id}`, { token: w.other.admin.token })).status).toBe(404);
    expect((await api("PUT", `/api/contacts/${id}`, { token: w.other.admin.token, body: { name: "Hacked" } })).status).toBe(404);
    expect((await api("DELETE", `/api/contacts/${id}`, { token: w.other.admin.token })).status).toBe(404);
    expect((await getContact(w.cid, id)).name).toBe("Karla");
    const edited = await api("PUT", `/api/contacts/${id}`, { token: w.agents[0].token, body: { name: "Karla Souza", number: "5511988880011" } });
    expect(edited.body).toMatchObject({ name: "Karla Souza", number: "5511988880011" });
    expect((await api("PUT", `/api/contacts/${id}`, { token: w.agents[0].token, body: { name: "K" } })).status).toBe(400);
    expect((await api("GET", "/api/contacts/abc", { token: w.agents[0].token })).status).toBe(400);
  });

  it("changes only the fields a partial body carries", async () => {
    const created = await api("POST", "/api/contacts", {
      token: w.agents[0].token,
      body: { name: "Parcial Silva", number: "5511988880031", email: "p@x.com", disableBot: true, extraInfo: [{ name: "CPF", value: "123" }] },
    });
    expect(created.status).toBe(200);
    const res = await api("PUT", `/api/contacts/${created.body.id}`, { token: w.agents[0].token, body: { name: "Parcial Souza" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Parcial Souza", number: "5511988880031", email: "p@x.com", disableBot: true, extraInfo: [expect.objectContaining({ name: "CPF", value: "123" })] });
    const read = await api("GET", `/api/contacts/${created.body.id}`, { token: w.agents[0].token });
    expect(read.body).toMatchObject({ email: "p@x.com", disableBot: true, extraInfo: [expect.objectContaining({ name: "CPF", value: "123" })] });
  });

  it("refuses a number that belongs to another contact", async () => {
    await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Lia", "5511988880020") });
    const m = await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Mia", "5511988880021") });
    const res = await api("PUT", `/api/contacts/${m.body.id}`, { token: w.agents[0].token, body: { number: "5511988880020" } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("ERR_DUPLICATED_CONTACT");
    expect((await getContact(w.cid, m.body.id)).number).toBe("5511988880021");
  });

  it("lets only admins delete, and frees the number", async () => {
    const n = await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Nina", "5511988880030") });
    expect((await api("DELETE", `/api/contacts/${n.body.id}`, { token: w.agents[0].token })).status).toBe(403);
    expect((await api("DELETE", `/api/contacts/${n.body.id}`, { token: w.admin.token })).status).toBe(200);
    expect((await api("GET", `/api/contacts/${n.body.id}`, { token: w.admin.token })).status).toBe(404);
    expect((await api("POST", "/api/contacts", { token: w.agents[0].token, body: body("Nina 2", "5511988880030") })).status).toBe(200);
  });
});

describe("GET /api/contacts total", () => {
  it("counts every contact of the company exactly, beyond the first page, created and deleted, and none of another company", async () => {
    const c = await w.fresh();
    const other = await w.fresh();
    for (let i = 0; i < 23; i++) expect((await api("POST", "/api/contacts", { token: c.admin.token, body: body(`Total ${i}`, `55119777700${String(i).padStart(2, "0")}`) })).status).toBe(200);
    await api("POST", "/api/contacts", { token: other.admin.token, body: body("Fora", "5511977779999") });
    const first = await api("GET", "/api/contacts", { token: c.admin.token });
    await settleDeferred();
    const settled = await api("GET", "/api/contacts", { token: c.admin.token });
    expect(first.body.contacts).toHaveLength(20);
    expect(settled.body).toMatchObject({ count: 23, hasMore: true });
    expect((await api("DELETE", `/api/contacts/${settled.body.contacts[0].id}`, { token: c.admin.token })).status).toBe(200);
    await settleDeferred();
    expect((await api("GET", "/api/contacts", { token: c.admin.token })).body.count).toBe(22);
    expect((await api("GET", "/api/contacts", { token: other.admin.token })).body.count).toBe(1);
    // A search still counts what it found.
    expect((await api("GET", "/api/contacts?searchParam=Fora", { token: c.admin.token })).body.count).toBe(0);
  });
});
