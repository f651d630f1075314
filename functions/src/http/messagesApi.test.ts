/**
 * The public messages API's rights, validation and rate limit through the HTTP handlers: only a connection token of
 * a company whose plan has the external API is accepted, bad input is refused before anything is stored or queued,
 * and a token past its window gets 429 with `Retry-After`. Sends through the runner (idempotency, files, status):
 * `session-runner/src/messages-api.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@atende/shared/config";
import { storedState } from "@atende/shared/ingest/testkit";
import { api, multipartBody } from "../../../test/helpers.ts";
import { companyWorld, drainCommands, useLocalAws } from "../../../test/world.ts";

useLocalAws({ sqs: true });
const world = companyWorld({ other: true });

/** A new connection of `w`'s company (through the API, as an admin does) and its token. */
async function tokenOf(w: { admin: { token: string } }): Promise<{ id: number; token: string }> {
  const created = await api("POST", "/api/whatsapp", { token: w.admin.token, body: { name: `API ${Math.random()}` } });
  expect(created.body).toMatchObject({ id: expect.any(Number) });
  await drainCommands(created.body.id); // its session start
  return { id: created.body.id, token: created.body.token };
}

describe("public messages API: who may call", () => {
  it("refuses a missing, unknown or user token with 401, and answers nothing of the company", async () => {
    const c = await tokenOf(world);
    for (const token of [undefined, "not-a-token", world.admin.token]) {
      const send = await api("POST", "/api/messages/send", { token, body: { number: "5511999990000", body: "Olá" } });
      expect(send).toMatchObject({ status: 401, body: { error: "ERR_SESSION_EXPIRED" } });
      expect((await api("GET", "/api/messages/send/ABC123", { token })).status).toBe(401);
    }
    expect(await drainCommands(c.id)).toEqual([]);
  });

  it("stops working once the admin regenerates the token", async () => {
    const c = await tokenOf(world);
    const renewed = await api("POST", `/api/whatsapp/${c.id}/token`, { token: world.admin.token });
    expect(renewed.status).toBe(200);
    expect((await api("POST", "/api/messages/send", { token: c.token, body: { number: "551199", body: "x" } })).status).toBe(401);
    expect((await api("POST", "/api/messages/send", { token: renewed.body.token, body: { number: "551199", body: "x" } })).body).toEqual({ error: "ERR_WAPP_INVALID_CONTACT" });
  });

  it("refuses a company whose plan has no external API with 403, nothing queued", async () => {
    const off = await world.fresh({ planFlags: { useExternalApi: false } });
    const c = await tokenOf(off);
    const send = await api("POST", "/api/messages/send", { token: c.token, body: { number: "5511999990000", body: "Olá" } });
    expect(send).toMatchObject({ status: 403, body: { error: "ERR_PLAN_FEATURE_DISABLED" } });
    expect((await api("GET", "/api/messages/send/ABC123", { token: c.token })).body).toEqual({ error: "ERR_PLAN_FEATURE_DISABLED" });
    expect(await drainCommands(c.id)).toEqual([]);
    expect((await storedState(off.cid)).messages).toEqual([]);
  });

  it("answers another company's message id with 404: the token sees only its own connection's messages", async () => {
    const other = await tokenOf(world.other);
    const res = await api("GET", "/api/messages/send/3EB0C0FFEE", { token: other.token });
    expect(res).toMatchObject({ status: 404, body: { error: "ERR_NO_MESSAGE_FOUND" } });
  });
});

describe("public messages API: validation before anything is stored", () => {
  it("refuses a masked, short or non-numeric number with ERR_WAPP_INVALID_CONTACT and an empty text with ERR_VALIDATION", async () => {
    const w = await world.fresh();
    const c = await tokenOf(w);
    const before = (await storedState(w.cid)).itemCount;
    for (const number of ["+55 (11) 99999-0000", "1199", "abc", ""]) {
      expect((await api("POST", "/api/messages/send", { token: c.token, body: { number, body: "Olá" } })).body.error).toMatch(/ERR_WAPP_INVALID_CONTACT|ERR_VALIDATION/);
    }
    expect((await api("POST", "/api/messages/send", { token: c.token, body: { number: "+55 (11) 99999-0000", body: "Olá" } })).body).toEqual({ error: "ERR_WAPP_INVALID_CONTACT" });
    expect((await api("POST", "/api/messages/send", { token: c.token, body: { number: "5511999990000", body: "  " } })).body).toMatchObject({ error: "ERR_VALIDATION", fields: [{ path: "body" }] });
    expect((await api("POST", "/api/messages/send", { token: c.token, body: { number: 5511999990000, body: "Olá" } })).body).toMatchObject({ error: "ERR_VALIDATION" });
    expect((await api("POST", "/api/messages/send", { token: c.token, rawBody: Buffer.from("{oops"), contentType: "application/json" })).body).toEqual({ error: "ERR_INVALID_JSON" });
    // Multipart without the number field.
    const noNumber = multipartBody([{ name: "a.pdf", type: "application/pdf", data: Buffer.from("%PDF") }]);
    expect((await api("POST", "/api/messages/send", { token: c.token, ...noNumber })).body).toMatchObject({ error: "ERR_VALIDATION", fields: [{ path: "number" }] });
    const badKey = await api("POST", "/api/messages/send", { token: c.token, headers: { "idempotency-key": "x".repeat(201) }, body: { number: "5511999990000", body: "Olá" } });
    expect(badKey.body).toMatchObject({ error: "ERR_VALIDATION", fields: [{ path: "Idempotency-Key" }] });
    expect((await storedState(w.cid)).itemCount).toBe(before);
    expect(await drainCommands(c.id)).toEqual([]);
  });

  it("refuses a connection that is not connected with ERR_WAPP_NOT_INITIALIZED, nothing stored", async () => {
    const w = await world.fresh();
    const c = await tokenOf(w); // created through the API: not paired yet
    const res = await api("POST", "/api/messages/send", { token: c.token, body: { number: "5511999990000", body: "Olá" } });
    expect(res).toMatchObject({ status: 400, body: { error: "ERR_WAPP_NOT_INITIALIZED" } });
    expect((await storedState(w.cid)).messages).toEqual([]);
  });
});

describe("public messages API: rate limit per token", () => {
  beforeAll(() => {
    process.env.MESSAGES_API_RATE_LIMIT = "3";
    resetConfig();
  });
  afterAll(() => {
    delete process.env.MESSAGES_API_RATE_LIMIT;
    resetConfig();
  });

  it("answers 429 with Retry-After past the window's limit, for that token only", async () => {
    const w = await world.fresh();
    const a = await tokenOf(w);
    const b = await tokenOf(w);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i < 4; i++) {
      const res = await api("POST", "/api/messages/send", { token: a.token, body: { number: "1", body: "x" } });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    // A window may end between two requests: at most the first request of the new window differs.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(statuses[3] === 429 ? 1 : 0);
    if (!limited) return expect(statuses).toEqual([400, 400, 400, 400]);
    expect(limited.body).toMatchObject({ error: "ERR_API_RATE_LIMITED", retryAfterSeconds: expect.any(Number) });
    const retry = Number(limited.headers["retry-after"]);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect((await api("POST", "/api/messages/send", { token: b.token, body: { number: "1", body: "x" } })).status).toBe(400);
  });
});
