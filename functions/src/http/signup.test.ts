/**
 * Sign-up and password reset through the real handlers (docs/product/companies.md): the sign-up creates a company
 * that logs in at once, with the trial due date, MENSAL, campaigns on, default settings and hours; it is refused while
 * registration is disabled, throttled per IP and per email, and a used email gets the same failure as any other. The
 * reset answers the same for any email, mails a code (read from the local SES emulator), which expires, counts wrong
 * attempts, and on success changes the password and ends every session of the user.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { putGlobalSetting } from "@atende/shared/settings/repository";
import { readInbox } from "../../../infra/local/src/ses.ts";
import { api } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws } from "../../../test/world.ts";

const aws = useLocalAws({ ses: true });
const w = companyWorld({ agents: [{ name: "Ana" }], other: true });
let ipSeq = 0;
const ip = () => `10.44.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
const signupBody = (email: string) => ({ name: "Loja Nova", email, phone: "(11) 98888-7777", password: "segredo1", planId: w.planId, recurrence: "MENSAL" });

beforeEach(async () => {
  await putGlobalSetting("allowregister", "enabled", { companyId: w.cid });
  await putGlobalSetting("trial", "5", { companyId: w.cid });
});
afterEach(() => vi.useRealTimers());

describe("POST /api/companies/cadastro", () => {
  it("creates a company on trial whose admin logs in at once", async () => {
    const res = await api("POST", "/api/companies/cadastro", { body: { ...signupBody("nova@loja.test"), status: false, dueDate: "2099-01-01", recurrence: "ANUAL" }, ip: ip() });
    expect(res.status).toBe(200);
    const login = await api("POST", "/api/auth/login", { body: { email: "nova@loja.test", password: "segredo1" }, ip: ip() });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ profile: "admin", super: false, name: "Loja Nova" });
    const days = (Date.parse(login.body.user.company.dueDate) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(4.9);
    expect(days).toBeLessThanOrEqual(5);
    const company = await api("GET", `/api/companies/listPlan/${login.body.user.companyId}`, { token: login.body.token });
    expect(company.body).toMatchObject({ recurrence: "MENSAL", status: true, campaignsEnabled: true, phone: "11988887777" });
    expect(company.body.schedules).toHaveLength(7);
    expect(login.body.user.company.settings).toEqual(expect.arrayContaining([{ key: "userRating", value: "disabled" }]));
  });

  it("answers a used email with the same failure, without saying it exists", async () => {
    const used = await api("POST", "/api/companies/cadastro", { body: signupBody(w.admin.email), ip: ip() });
    expect(used.status).toBe(400);
    expect(used.body).toEqual({ error: "ERR_SIGNUP_FAILED" });
    const noPlan = await api("POST", "/api/companies/cadastro", { body: { ...signupBody("sem-plano@loja.test"), planId: 987654 }, ip: ip() });
    expect(noPlan.body).toEqual(used.body);
    expect((await api("POST", "/api/auth/login", { body: { email: w.admin.email, password: "segredo1" }, ip: ip() })).status).toBe(401);
  });

  it("is refused while registration is disabled, and bad bodies change nothing", async () => {
    await putGlobalSetting("allowregister", "disabled", { companyId: w.cid });
    const res = await api("POST", "/api/companies/cadastro", { body: signupBody("fechado@loja.test"), ip: ip() });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "ERR_REGISTRATION_DISABLED" });
    await putGlobalSetting("allowregister", "enabled", { companyId: w.cid });
    expect((await api("POST", "/api/companies/cadastro", { body: { ...signupBody("curto@loja.test"), phone: "(11) 98888-77779" }, ip: ip() })).status).toBe(400);
    expect((await api("POST", "/api/companies/cadastro", { body: { ...signupBody("x@loja.test"), name: "L" }, ip: ip() })).status).toBe(400);
    expect((await api("POST", "/api/auth/login", { body: { email: "fechado@loja.test", password: "segredo1" }, ip: ip() })).status).toBe(401);
  });

  it("throttles per email and per IP", async () => {
    const used = (await w.fresh()).admin.email;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api("POST", "/api/companies/cadastro", { body: signupBody(used), ip: ip() })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const one = ip();
    const fromOne: number[] = [];
    for (let i = 0; i < 11; i++) fromOne.push((await api("POST", "/api/companies/cadastro", { body: signupBody(`spray${i}@x.test`), ip: one })).status);
    expect(fromOne.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(fromOne[10]).toBe(429);
  });
});

/** The newest code mailed to `email`. */
async function codeFor(email: string): Promise<string> {
  const mails = (await readInbox(aws.ses.endpoint)).filter((m) => m.destination.to.includes(email));
  const m = /\b(\d{6})\b/.exec(mails.at(-1)?.body.text ?? "");
  if (!m) throw new Error(`no code mailed to ${email}`);
  return m[1];
}

describe("password reset", () => {
  const strong = "NovaSenha1";

  it("answers the same for an unknown email and mails nothing to it", async () => {
    const known = await api("POST", "/api/auth/forgot-password", { body: { email: w.agents[0].email }, ip: ip() });
    const unknown = await api("POST", "/api/auth/forgot-password", { body: { email: "ninguem@nada.test" }, ip: ip() });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect((await readInbox(aws.ses.endpoint)).some((m) => m.destination.to.includes("ninguem@nada.test"))).toBe(false);
    expect((await api("POST", "/api/auth/forgot-password", { body: { email: "não é email" }, ip: ip() })).status).toBe(400);
  });

  it("resets with the mailed code, ends every session and logs in with the new password", async () => {
    const u = (await w.fresh()).admin;
    const before = await api("POST", "/api/auth/login", { body: { email: u.email, password: u.password }, ip: ip() });
    expect((await api("POST", "/api/auth/forgot-password", { body: { email: u.email }, ip: ip() })).status).toBe(200);
    const token = await codeFor(u.email);
    const mismatch = await api("POST", "/api/auth/reset-password", { body: { email: u.email, token, newPassword: strong, confirmPassword: "Outra123" }, ip: ip() });
    expect(mismatch.status).toBe(400);
    expect(JSON.stringify(mismatch.body)).toContain("As senhas não correspondem");
    const weak = await api("POST", "/api/auth/reset-password", { body: { email: u.email, token, newPassword: "fraca", confirmPassword: "fraca" }, ip: ip() });
    expect(JSON.stringify(weak.body)).toContain("Sua senha precisa ter no mínimo 8 caracteres");
    const ok = await api("POST", "/api/auth/reset-password", { body: { email: u.email, token, newPassword: strong, confirmPassword: strong }, ip: ip() });
    expect(ok.status).toBe(200);
    expect((await api("GET", "/api/auth/me", { token: before.body.token })).status).toBe(401);
    expect((await api("POST", "/api/auth/login", { body: { email: u.email, password: u.password }, ip: ip() })).status).toBe(401);
    expect((await api("POST", "/api/auth/login", { body: { email: u.email, password: strong }, ip: ip() })).status).toBe(200);
    // Single use.
    expect((await api("POST", "/api/auth/reset-password", { body: { email: u.email, token, newPassword: "Terceira1", confirmPassword: "Terceira1" }, ip: ip() })).status).toBe(400);
  });

  it("drops the code after five wrong attempts, even for the right one", async () => {
    const u = (await w.fresh()).admin;
    await api("POST", "/api/auth/forgot-password", { body: { email: u.email }, ip: ip() });
    const token = await codeFor(u.email);
    const wrong = token === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const r = await api("POST", "/api/auth/reset-password", { body: { email: u.email, token: wrong, newPassword: strong, confirmPassword: strong }, ip: ip() });
      expect(r.body).toEqual({ error: "ERR_INVALID_RESET_CODE" });
    }
    const right = await api("POST", "/api/auth/reset-password", { body: { email: u.email, token, newPassword: strong, confirmPassword: strong }, ip: ip() });
    expect(right.body).toEqual({ error: "ERR_INVALID_RESET_CODE" });
    expect((await api("POST", "/api/auth/login", { body: { email: u.email, password: u.password }, ip: ip() })).status).toBe(200);
  });

  it("refuses a code past its 15 minutes", async () => {
    const u = (await w.fresh()).admin;
    await api("POST", "/api/auth/forgot-password", { body: { email: u.email }, ip: ip() });
    const token = await codeFor(u.email);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 15 * 60_000 + 1000 });
    const late = await api("POST", "/api/auth/reset-password", { body: { email: u.email, token, newPassword: strong, confirmPassword: strong }, ip: ip() });
    expect(late.body).toEqual({ error: "ERR_INVALID_RESET_CODE" });
  });

  it("throttles requests per email", async () => {
    const u = (await w.fresh()).admin;
    const s: number[] = [];
    for (let i = 0; i < 4; i++) s.push((await api("POST", "/api/auth/forgot-password", { body: { email: u.email }, ip: ip() })).status);
    expect(s).toEqual([200, 200, 200, 429]);
  });
});
