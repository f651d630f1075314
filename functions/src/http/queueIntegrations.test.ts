/**
 * Queue integrations through the real Lambda handlers: CRUD with its defaults and per-type rules, admins only,
 * the plan flag, cross-company isolation on every route, live frames to admins only, and the Dialogflow test
 * session against a local stand-in speaking the OAuth token endpoint and detectIntent.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportPKCS8, generateKeyPair, jwtVerify, exportSPKI, importSPKI } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { resetConfig } from "../../../shared/src/config.ts";
import { clearDialogflowTokens } from "../../../shared/src/integrations/dialogflow.ts";
import { openJsonContent, openWebhookSecret } from "../../../shared/src/integrations/credentials.ts";
import { getIntegration, putNewIntegration } from "../../../shared/src/integrations/repository.ts";
import { IntegrationItem } from "../../../shared/src/integrations/schema.ts";
import { IntegrationsPage, QueueIntegration } from "../../../shared/src/integrations/schema.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";

const w = companyWorld({ queues: ["Suporte"], agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Sofia", profile: "supervisor" }], other: true });
const ana = () => w.agents[0];
const sofia = () => w.agents[1];

let n = 0;
const nm = (base: string) => `${base} ${++n}`;
const create = (token: string, body: Record<string, unknown>) => api("POST", "/api/queueIntegration", { token, body });

describe("POST /api/queueIntegration", () => {
  it("creates a typebot by default with the documented defaults, projectName = name, in the caller's company", async () => {
    const res = await create(w.admin.token, { name: nm("Bot vendas"), urlN8N: "https://typebot.example.com", typebotSlug: "vendas", companyId: w.other.companyId });
    expect(res.status).toBe(200);
    const it0 = QueueIntegration.parse(res.body);
    expect(it0).toMatchObject({ companyId: w.cid, type: "typebot", typebotExpires: 1, typebotDelayMessage: 1000, projectName: it0.name, webhookSecret: "" });
    expect(await getIntegration(w.other.companyId, it0.id)).toBeUndefined();
  });

  it("gives n8n and webhook integrations a signing secret, and keeps a dialogflow projectName", async () => {
    const hook = QueueIntegration.parse((await create(w.admin.token, { type: "webhook", name: nm("Hook"), projectName: "ignored", urlN8N: "https://flows.example.com/x" })).body);
    const stored = (await getIntegration(w.cid, hook.id))!;
    const secret = await openWebhookSecret(stored);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(hook.webhookSecret).toBe(`••••••••${secret.slice(-4)}`);
    expect(hook.projectName).toBe(hook.name);
    const df = QueueIntegration.parse((await create(w.admin.token, { type: "dialogflow", name: nm("DF"), projectName: "meu-projeto", language: "pt-BR", jsonContent: "{}" })).body);
    expect(df).toMatchObject({ projectName: "meu-projeto", language: "pt-BR", webhookSecret: "", jsonContent: "••••••••{}" });
  });

  it("stores Dialogflow's credentials and the signing secret only sealed, answers and frames them masked, and keeps them on an edit that leaves the mask", async () => {
    const c = await w.fresh();
    const adminSock = await registerSocket(c.cid, { id: c.admin.id, profile: "admin" });
    w.capture.clear();
    const json = JSON.stringify({ type: "service_account", project_id: "p-1", private_key: "-----BEGIN PRIVATE KEY-----secreta-----END PRIVATE KEY-----", client_email: "bot@p-1.iam" });
    const secret = "um-segredo-digitado-pelo-admin-9876";
    const df = QueueIntegration.parse((await create(c.admin.token, { type: "dialogflow", name: nm("DF"), projectName: "p-1", language: "pt-BR", jsonContent: json })).body);
    const hook = QueueIntegration.parse((await create(c.admin.token, { type: "n8n", name: nm("Fluxo"), urlN8N: "https://n8n.example.com/h", webhookSecret: secret })).body);
    expect(df.jsonContent).toBe(`••••••••${json.slice(-4)}`);
    expect(hook.webhookSecret).toBe(`••••••••${secret.slice(-4)}`);
    // At rest: nothing in clear, and the sealed values open to what was typed.
    const rawDf = (await getIntegration(c.cid, df.id))!;
    const rawHook = (await getIntegration(c.cid, hook.id))!;
    expect(JSON.stringify(rawDf)).not.toContain("secreta");
    expect(JSON.stringify(rawHook)).not.toContain(secret);
    expect(await openJsonContent(rawDf)).toBe(json);
    expect(await openWebhookSecret(rawHook)).toBe(secret);
    // Every answer masks them.
    for (const res of [await api("GET", `/api/queueIntegration/${df.id}`, { token: c.admin.token }), await api("GET", "/api/queueIntegration", { token: c.admin.token })]) {
      expect(JSON.stringify(res.body)).not.toContain("secreta");
      expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    // An edit sending the masks back (the dialog) or leaving them out keeps the secrets; a typed one replaces.
    const kept = await api("PUT", `/api/queueIntegration/${hook.id}`, { token: c.admin.token, body: { name: "Fluxo novo", webhookSecret: hook.webhookSecret } });
    expect(kept.status).toBe(200);
    expect(kept.body.webhookSecret).toBe(hook.webhookSecret);
    expect(await openWebhookSecret((await getIntegration(c.cid, hook.id))!)).toBe(secret);
    expect((await api("PUT", `/api/queueIntegration/${df.id}`, { token: c.admin.token, body: { jsonContent: df.jsonContent, language: "es" } })).status).toBe(200);
    expect(await openJsonContent((await getIntegration(c.cid, df.id))!)).toBe(json);
    const replaced = await api("PUT", `/api/queueIntegration/${hook.id}`, { token: c.admin.token, body: { webhookSecret: "outro-segredo-bem-comprido-0000" } });
    expect(replaced.body.webhookSecret).toBe("••••••••0000");
    expect(await openWebhookSecret((await getIntegration(c.cid, hook.id))!)).toBe("outro-segredo-bem-comprido-0000");
    // Frames carry the masks only.
    const frames = w.capture.frames.filter((f) => f.connectionId === adminSock && f.event === `company-${c.cid}-queueIntegration`);
    expect(frames.map((f) => f.data.action)).toEqual(["create", "create", "update", "update", "update"]);
    const all = JSON.stringify(frames);
    for (const clear of ["secreta", secret, "outro-segredo-bem-comprido-0000"]) expect(all).not.toContain(clear);
  });

  it("reads an integration stored in clear before sealing, and seals it at the admins' first read", async () => {
    const now = new Date().toISOString();
    const legacy = IntegrationItem.parse({ id: 90_000 + n++, companyId: w.cid, type: "n8n", name: nm("Antigo"), urlN8N: "https://n8n.example.com/old", webhookSecret: "segredo-antigo-em-claro-4321", createdAt: now, updatedAt: now });
    const legacyDf = IntegrationItem.parse({ ...legacy, id: legacy.id + 1, type: "dialogflow", name: nm("DF antigo"), urlN8N: "", webhookSecret: "", jsonContent: '{"private_key":"chave-antiga"}', language: "pt-BR" });
    await putNewIntegration(legacy);
    await putNewIntegration(legacyDf);
    // The bots read the clear values as they are until then.
    expect(await openWebhookSecret((await getIntegration(w.cid, legacy.id))!)).toBe("segredo-antigo-em-claro-4321");
    const shown = await api("GET", `/api/queueIntegration/${legacy.id}`, { token: w.admin.token });
    expect(shown.body.webhookSecret).toBe("••••••••4321");
    const listed = IntegrationsPage.parse((await api("GET", `/api/queueIntegration?searchParam=${encodeURIComponent(legacyDf.name)}`, { token: w.admin.token })).body);
    expect(listed.queueIntegrations[0].jsonContent).toBe("••••••••ga\"}");
    for (const [it, clear] of [[legacy, "segredo-antigo"], [legacyDf, "chave-antiga"]] as const) {
      const raw = (await getIntegration(w.cid, it.id))!;
      expect(JSON.stringify(raw)).not.toContain(clear);
      expect(raw.updatedAt).toBe(it.updatedAt);
    }
    expect(await openWebhookSecret((await getIntegration(w.cid, legacy.id))!)).toBe("segredo-antigo-em-claro-4321");
    expect(await openJsonContent((await getIntegration(w.cid, legacyDf.id))!)).toBe('{"private_key":"chave-antiga"}');
  });

  it("validates name (Required, Too Short!, Too Long!) and the fields each type needs, writing nothing", async () => {
    const before = IntegrationsPage.parse((await api("GET", "/api/queueIntegration", { token: w.admin.token })).body).count;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ urlN8N: "https://x.example.com", typebotSlug: "s" }, "name", "Required"],
      [{ name: "A", urlN8N: "https://x.example.com", typebotSlug: "s" }, "name", "Too Short!"],
      [{ name: "A".repeat(51), urlN8N: "https://x.example.com", typebotSlug: "s" }, "name", "Too Long!"],
      [{ name: "Sem url", typebotSlug: "s" }, "urlN8N", "Required"],
      [{ name: "Sem slug", urlN8N: "https://x.example.com" }, "typebotSlug", "Required"],
      [{ type: "n8n", name: "Url ruim", urlN8N: "javascript:alert(1)" }, "urlN8N", ""],
      [{ type: "dialogflow", name: "Sem idioma", jsonContent: "{}" }, "language", "Required"],
      [{ type: "dialogflow", name: "Idioma ruim", jsonContent: "{}", language: "fr" }, "language", ""],
      [{ type: "telegram", name: "Tipo ruim", urlN8N: "https://x.example.com" }, "type", ""],
      [{ name: "Atraso", urlN8N: "https://x.example.com", typebotSlug: "s", typebotDelayMessage: -1 }, "typebotDelayMessage", ""],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(w.admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      const field = res.body.fields.find((f: any) => f.path === path);
      expect(field, JSON.stringify(body)).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    expect(IntegrationsPage.parse((await api("GET", "/api/queueIntegration", { token: w.admin.token })).body).count).toBe(before);
  });

  it("is refused to agents and supervisors (403) and to a company whose plan lacks useIntegrations", async () => {
    for (const u of [ana(), sofia()]) {
      const res = await create(u.token, { name: nm("Proibido"), urlN8N: "https://x.example.com", typebotSlug: "s" });
      expect(res.status).toBe(403);
    }
    const off = await w.fresh({ planFlags: { useIntegrations: false } });
    const res = await create(off.admin.token, { name: nm("Sem plano"), urlN8N: "https://x.example.com", typebotSlug: "s" });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("ERR_PLAN_FEATURE_DISABLED");
    expect((await api("GET", "/api/queueIntegration", { token: off.admin.token })).body.error).toBe("ERR_PLAN_FEATURE_DISABLED");
  });
});

describe("GET, PUT, DELETE /api/queueIntegration/{id}", () => {
  it("lists by name with search and pages, shows, updates and deletes; live frames reach admins only", async () => {
    const c = await w.fresh();
    const adminSock = await registerSocket(c.cid, { id: c.admin.id, profile: "admin" });
    const agentSock = await registerSocket(c.cid, { id: c.admin.id + 1000, profile: "user" });
    w.capture.clear();
    const made = [];
    for (let i = 0; i < 42; i++) made.push(QueueIntegration.parse((await create(c.admin.token, { type: "n8n", name: `Fluxo ${String(i).padStart(2, "0")}`, urlN8N: "https://n8n.example.com/hook" })).body));
    const p1 = IntegrationsPage.parse((await api("GET", "/api/queueIntegration", { token: c.admin.token })).body);
    expect(p1).toMatchObject({ count: 42, hasMore: true });
    expect(p1.queueIntegrations.map((x) => x.name).slice(0, 2)).toEqual(["Fluxo 00", "Fluxo 01"]);
    const p2 = IntegrationsPage.parse((await api("GET", "/api/queueIntegration?pageNumber=2", { token: c.admin.token })).body);
    expect(p2.queueIntegrations.map((x) => x.name)).toEqual(["Fluxo 40", "Fluxo 41"]);
    expect(p2.hasMore).toBe(false);
    const found = IntegrationsPage.parse((await api("GET", "/api/queueIntegration?searchParam=fluxo%2041", { token: c.admin.token })).body);
    expect(found.queueIntegrations.map((x) => x.id)).toEqual([made[41].id]);

    const target = made[3];
    expect((await api("GET", `/api/queueIntegration/${target.id}`, { token: c.admin.token })).body).toMatchObject({ id: target.id, name: "Fluxo 03" });
    const up = await api("PUT", `/api/queueIntegration/${target.id}`, { token: c.admin.token, body: { name: "Fluxo renomeado" } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ name: "Fluxo renomeado", projectName: "Fluxo renomeado", webhookSecret: target.webhookSecret });
    expect(target.webhookSecret).toMatch(/^•{8}[0-9a-f]{4}$/);
    // Turning it into a typebot without a slug is incomplete: refused, unchanged.
    const bad = await api("PUT", `/api/queueIntegration/${target.id}`, { token: c.admin.token, body: { type: "typebot" } });
    expect(bad.status).toBe(400);
    expect((await getIntegration(c.cid, target.id))?.type).toBe("n8n");
    expect((await api("DELETE", `/api/queueIntegration/${target.id}`, { token: c.admin.token })).status).toBe(200);
    expect((await api("GET", `/api/queueIntegration/${target.id}`, { token: c.admin.token })).status).toBe(404);

    const toAdmin = w.capture.frames.filter((f) => f.connectionId === adminSock && f.event === `company-${c.cid}-queueIntegration`);
    expect(toAdmin.map((f) => f.data.action)).toEqual([...Array(42).fill("create"), "update", "delete"]);
    expect(toAdmin.at(-1)?.data).toEqual({ action: "delete", integrationId: target.id });
    expect(w.capture.frames.filter((f) => f.connectionId === agentSock && f.event.endsWith("-queueIntegration"))).toEqual([]);
  });

  it("another company's admin gets 404 on every route and changes nothing; agents get 403", async () => {
    const mine = QueueIntegration.parse((await create(w.admin.token, { type: "webhook", name: nm("Privado"), urlN8N: "https://x.example.com" })).body);
    const other = w.other.admin.token;
    expect((await api("GET", `/api/queueIntegration/${mine.id}`, { token: other })).status).toBe(404);
    expect((await api("PUT", `/api/queueIntegration/${mine.id}`, { token: other, body: { name: "Roubado" } })).status).toBe(404);
    expect((await api("DELETE", `/api/queueIntegration/${mine.id}`, { token: other })).status).toBe(404);
    const theirs = IntegrationsPage.parse((await api("GET", "/api/queueIntegration?searchParam=Privado", { token: other })).body);
    expect(theirs.queueIntegrations).toEqual([]);
    expect(await getIntegration(w.cid, mine.id)).toMatchObject({ name: mine.name });
    for (const [method, path] of [["GET", "/api/queueIntegration"], ["GET", `/api/queueIntegration/${mine.id}`], ["PUT", `/api/queueIntegration/${mine.id}`], ["DELETE", `/api/queueIntegration/${mine.id}`]] as const) {
      expect((await api(method, path, { token: ana().token, body: method === "PUT" ? { name: "Nome novo" } : undefined })).status, `${method} ${path}`).toBe(403);
    }
  });
});

describe("POST /api/queueIntegration/testSession", () => {
  let server: Server;
  let base = "";
  let publicKey = "";
  const seen: { path: string; auth?: string; body: string }[] = [];
  let serviceAccount = "";
  beforeAll(async () => {
    const pair = await generateKeyPair("RS256", { extractable: true });
    publicKey = await exportSPKI(pair.publicKey);
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ path: req.url ?? "", auth: req.headers.authorization, body });
        res.setHeader("content-type", "application/json");
        if (req.url === "/token") return res.end(JSON.stringify({ access_token: "tok-123", expires_in: 3600, token_type: "Bearer" }));
        if (req.headers.authorization !== "Bearer tok-123") return res.writeHead(401).end("{}");
        res.end(JSON.stringify({ queryResult: { fulfillmentMessages: [{ text: { text: ["Olá! Sou o agente."] } }], intent: { displayName: "Welcome" } } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.DIALOGFLOW_API_URL = base;
    resetConfig();
    clearDialogflowTokens();
    serviceAccount = JSON.stringify({ type: "service_account", project_id: "proj-1", private_key: await exportPKCS8(pair.privateKey), client_email: "bot@proj-1.iam.gserviceaccount.com", token_uri: `${base}/token` });
  });
  afterAll(async () => {
    delete process.env.DIALOGFLOW_API_URL;
    resetConfig();
    await new Promise((r) => server.close(r));
  });

  it("signs the OAuth JWT with the service account and answers the agent's replies", async () => {
    const res = await api("POST", "/api/queueIntegration/testSession", { token: w.admin.token, body: { projectName: "proj-1", jsonContent: serviceAccount, language: "pt-BR" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, replies: ["Olá! Sou o agente."] });
    const token = seen.find((s) => s.path === "/token")!;
    const form = new URLSearchParams(token.body);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const { payload } = await jwtVerify(form.get("assertion")!, await importSPKI(publicKey, "RS256"), { audience: `${base}/token`, issuer: "bot@proj-1.iam.gserviceaccount.com" });
    expect(payload.scope).toBe("https://www.googleapis.com/auth/cloud-platform");
    const detect = seen.find((s) => s.path.includes(":detectIntent"))!;
    expect(detect.path).toMatch(/^\/v2\/projects\/proj-1\/agent\/sessions\/[^/]+:detectIntent$/);
    expect(JSON.parse(detect.body)).toEqual({ queryInput: { text: { text: "Olá", languageCode: "pt-BR" } } });
  });

  it("tests an integration's stored credentials when the dialog sends their mask, in the caller's company only", async () => {
    const df = QueueIntegration.parse((await create(w.admin.token, { type: "dialogflow", name: nm("DF salvo"), projectName: "proj-1", language: "pt-BR", jsonContent: serviceAccount })).body);
    const res = await api("POST", "/api/queueIntegration/testSession", { token: w.admin.token, body: { id: df.id, projectName: "proj-1", jsonContent: df.jsonContent, language: "pt-BR" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, replies: ["Olá! Sou o agente."] });
    const other = await api("POST", "/api/queueIntegration/testSession", { token: w.other.admin.token, body: { id: df.id, projectName: "proj-1", jsonContent: df.jsonContent, language: "pt-BR" } });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe("ERR_NO_INTEGRATION_FOUND");
  });

  it("answers 400 ERR_INTEGRATION_TEST_FAILED for unusable credentials, and 403 to agents", async () => {
    const res = await api("POST", "/api/queueIntegration/testSession", { token: w.admin.token, body: { projectName: "proj-1", jsonContent: "not json", language: "pt-BR" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("ERR_INTEGRATION_TEST_FAILED");
    const agent = await api("POST", "/api/queueIntegration/testSession", { token: ana().token, body: { projectName: "proj-1", jsonContent: serviceAccount, language: "pt-BR" } });
    expect(agent.status).toBe(403);
  });
});
