/**
 * AI prompts through the real Lambda handlers: CRUD with every field and its defaults (both wire names of the old
 * clients), "Informe o setor" without a queue, admins only, the plan flag useOpenAi, another company's prompts
 * unseen, the provider's keys stored sealed and never answered in clear (replaced only when a new one is typed), and
 * the live frames to the company's admins.
 */
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../../shared/src/config.ts";
import { aiClient } from "../../../shared/src/prompts/provider.ts";
import { createPrompt, updatePrompt } from "../../../shared/src/prompts/service.ts";
import { api } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { openSetting } from "../../../shared/src/settings/sealed.ts";
import { getPrompt } from "../../../shared/src/prompts/repository.ts";
import { Prompt, PromptList } from "../../../shared/src/prompts/schema.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";

const w = companyWorld({ queues: ["Vendas", "Suporte"], agents: [{ queues: [0], name: "Ana" }, { queues: [0], name: "Sofia", profile: "supervisor" }], other: true });

const KEY = "sk-test-1234567890abcdefWXYZ";
const base = () => ({ name: "Atendente virtual", apiKey: KEY, prompt: "Você é o assistente da loja. Responda com educação e objetividade.", queueId: w.queues[0] });
const create = (body: Record<string, unknown>, token = w.admin.token) => api("POST", "/api/prompt", { token, body });

describe("POST /api/prompt", () => {
  it("creates a prompt with the defaults, in the caller's company, its key sealed at rest and masked in the answer", async () => {
    const res = await create({ ...base(), companyId: w.other.companyId });
    expect(res.status).toBe(200);
    const p = Prompt.parse(res.body);
    expect(p).toMatchObject({ companyId: w.cid, name: "Atendente virtual", voice: "texto", temperature: 1, maxTokens: 100, maxMessages: 10, queueId: w.queues[0], queue: { id: w.queues[0], name: "Vendas" }, voiceKey: "", baseUrl: "" });
    expect(p.apiKey).toBe("••••••••WXYZ");
    expect(JSON.stringify(res.body)).not.toContain(KEY.slice(0, 12));
    const stored = (await getPrompt(w.cid, p.id))!;
    expect(JSON.stringify(stored)).not.toContain(KEY);
    expect(stored.apiKeySealed).toMatch(/^aes:/);
    expect(await openSetting(stored.apiKeySealed, { companyId: w.cid, key: "prompt.apiKey" })).toBe(KEY);
    // Sealed for this company and field: it does not open as another company's or as the voice key.
    await expect(openSetting(stored.apiKeySealed, { companyId: w.other.companyId, key: "prompt.apiKey" })).rejects.toThrow();
    await expect(openSetting(stored.apiKeySealed, { companyId: w.cid, key: "prompt.voiceKey" })).rejects.toThrow();
    expect(await getPrompt(w.other.companyId, p.id)).toBeUndefined();
  });

  it("reads both wire names: max_tokens, max_messages and 'api key'; numbers as forms send them", async () => {
    const { apiKey: _k, ...rest } = base();
    const res = await create({ ...rest, "api key": "sk-other-key-9876", max_tokens: "300", max_messages: 5, temperature: "0.4", voice: "pt-BR-FranciscaNeural", voiceKey: "azure-key-0001", voiceRegion: "brazilsouth" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ maxTokens: 300, maxMessages: 5, temperature: 0.4, voice: "pt-BR-FranciscaNeural", voiceRegion: "brazilsouth", apiKey: "••••••••9876", voiceKey: "••••••••0001" });
    const stored = (await getPrompt(w.cid, res.body.id))!;
    expect(await openSetting(stored.voiceKeySealed, { companyId: w.cid, key: "prompt.voiceKey" })).toBe("azure-key-0001");
  });

  it("refuses a prompt without a queue ('Informe o setor'), bad fields, an unknown queue, a voice without its key; writes nothing", async () => {
    const before = PromptList.parse((await api("GET", "/api/prompt", { token: w.admin.token })).body).prompts.length;
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ ...base(), queueId: undefined }, "queueId", "Informe o setor"],
      [{ ...base(), queueId: "" }, "queueId", "Informe o setor"],
      [{ ...base(), queueId: "abc" }, "queueId", "Invalid id"],
      [{ ...base(), name: " " }, "name", "Obrigatório"],
      [{ ...base(), apiKey: "" }, "apiKey", "Obrigatório"],
      [{ ...base(), prompt: "" }, "prompt", "Obrigatório"],
      [{ ...base(), temperature: 3 }, "temperature"],
      [{ ...base(), maxTokens: 0 }, "maxTokens"],
      [{ ...base(), maxMessages: 51 }, "maxMessages"],
      [{ ...base(), voice: "pt-BR-Desconhecida" }, "voice"],
      [{ ...base(), baseUrl: "ftp://x" }, "baseUrl"],
      [{ ...base(), voice: "pt-BR-YaraNeural", voiceRegion: "brazilsouth" }, "voiceKey", "Obrigatório"],
    ];
    for (const [body, path, message] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("ERR_VALIDATION");
      const field = res.body.fields.find((f: { path: string }) => f.path === path);
      expect(field, JSON.stringify(body)).toBeDefined();
      if (message) expect(field.message).toBe(message);
    }
    // Queue ids are read in the caller's company only: an id no queue of it has is 404.
    const res = await create({ ...base(), queueId: 9999 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
    expect(PromptList.parse((await api("GET", "/api/prompt", { token: w.admin.token })).body).prompts).toHaveLength(before);
  });
});

describe("PUT, GET and DELETE /api/prompt/{id}", () => {
  it("edits fields, keeps the key when the mask or nothing is sent back, replaces it only when a new one is typed", async () => {
    const p = Prompt.parse((await create(base())).body);
    const masked = await api("PUT", `/api/prompt/${p.id}`, { token: w.admin.token, body: { ...p, maxTokens: undefined, name: "Assistente Vendas", max_tokens: 250, queueId: w.queues[1] } });
    expect(masked.status).toBe(200);
    expect(masked.body).toMatchObject({ name: "Assistente Vendas", maxTokens: 250, queueId: w.queues[1], queue: { name: "Suporte" }, apiKey: "••••••••WXYZ" });
    let stored = (await getPrompt(w.cid, p.id))!;
    expect(await openSetting(stored.apiKeySealed, { companyId: w.cid, key: "prompt.apiKey" })).toBe(KEY);
    await api("PUT", `/api/prompt/${p.id}`, { token: w.admin.token, body: { apiKey: "" } });
    stored = (await getPrompt(w.cid, p.id))!;
    expect(await openSetting(stored.apiKeySealed, { companyId: w.cid, key: "prompt.apiKey" })).toBe(KEY);
    const typed = await api("PUT", `/api/prompt/${p.id}`, { token: w.admin.token, body: { apiKey: "sk-brand-new-key-5555" } });
    expect(typed.body.apiKey).toBe("••••••••5555");
    stored = (await getPrompt(w.cid, p.id))!;
    expect(await openSetting(stored.apiKeySealed, { companyId: w.cid, key: "prompt.apiKey" })).toBe("sk-brand-new-key-5555");
    const shown = await api("GET", `/api/prompt/${p.id}`, { token: w.admin.token });
    expect(shown.body).toMatchObject({ id: p.id, name: "Assistente Vendas", apiKey: "••••••••5555" });
    const all = PromptList.parse((await api("GET", "/api/prompt", { token: w.admin.token })).body);
    expect(JSON.stringify(all)).not.toMatch(/sk-brand-new|sk-test-1234/);
    expect((await api("PUT", `/api/prompt/${p.id}`, { token: w.admin.token, body: { temperature: -1 } })).status).toBe(400);
  });

  it("deletes with a message; the prompt is gone", async () => {
    const p = Prompt.parse((await create(base())).body);
    const res = await api("DELETE", `/api/prompt/${p.id}`, { token: w.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Prompt deleted" });
    expect((await api("GET", `/api/prompt/${p.id}`, { token: w.admin.token })).body).toEqual({ error: "ERR_NO_PROMPT_FOUND" });
    expect(await getPrompt(w.cid, p.id)).toBeUndefined();
  });
});

describe("who may", () => {
  it("admins only: a user and a supervisor get 403 on every route, and nothing changes", async () => {
    const p = Prompt.parse((await create(base())).body);
    for (const u of [w.agents[0], w.agents[1]]) {
      const calls = [
        api("GET", "/api/prompt", { token: u.token }),
        api("GET", `/api/prompt/${p.id}`, { token: u.token }),
        create(base(), u.token),
        api("PUT", `/api/prompt/${p.id}`, { token: u.token, body: { name: "Tomado" } }),
        api("DELETE", `/api/prompt/${p.id}`, { token: u.token }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "ERR_NO_PERMISSION" });
      }
    }
    expect((await getPrompt(w.cid, p.id))?.name).toBe("Atendente virtual");
    expect((await api("GET", "/api/prompt")).status).toBe(401);
  });

  it("another company's admin sees none of them and can change none (404)", async () => {
    const p = Prompt.parse((await create(base())).body);
    const theirs = PromptList.parse((await api("GET", "/api/prompt", { token: w.other.admin.token })).body);
    expect(theirs.prompts.map((x) => x.id)).not.toContain(p.id);
    expect(theirs.prompts.every((x) => x.companyId === w.other.companyId)).toBe(true);
    for (const [method, body] of [["GET", undefined], ["PUT", { name: "Tomado" }], ["DELETE", undefined]] as const) {
      const res = await api(method, `/api/prompt/${p.id}`, { token: w.other.admin.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ error: "ERR_NO_PROMPT_FOUND" });
    }
    expect((await getPrompt(w.cid, p.id))?.name).toBe("Atendente virtual");
  });

  it("needs the plan's useOpenAi: a company whose plan has it off gets 403 on every route", async () => {
    const off = await w.fresh({ planFlags: { useOpenAi: false } });
    for (const [method, path, body] of [
      ["GET", "/api/prompt", undefined],
      ["GET", "/api/prompt/1", undefined],
      ["POST", "/api/prompt", { ...base(), queueId: off.queues[0] }],
      ["PUT", "/api/prompt/1", { name: "x" }],
      ["DELETE", "/api/prompt/1", undefined],
    ] as const) {
      const res = await api(method, path, { token: off.admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: "ERR_PLAN_FEATURE_DISABLED" });
    }
  });
});

describe("live", () => {
  it("create, update and delete reach the company's admins (keys masked), not its agents nor another company", async () => {
    const adminSock = await registerSocket(w.cid, { id: w.admin.id, profile: "admin" });
    const agentSock = await registerSocket(w.cid, { id: w.agents[0].id, profile: "user", queueIds: [w.queues[0]] });
    const otherSock = await registerSocket(w.other.companyId, { id: w.other.admin.id, profile: "admin" });
    w.capture.clear();
    const p = Prompt.parse((await create(base())).body);
    await api("PUT", `/api/prompt/${p.id}`, { token: w.admin.token, body: { name: "Novo nome" } });
    await api("DELETE", `/api/prompt/${p.id}`, { token: w.admin.token });
    const frames = w.capture.frames.filter((f) => f.event === `company-${w.cid}-prompt`);
    expect(frames.every((f) => f.connectionId === adminSock)).toBe(true);
    expect(frames.map((f) => f.data.action)).toEqual(["create", "update", "delete"]);
    expect(frames[0].data.prompt).toMatchObject({ id: p.id, apiKey: "••••••••WXYZ" });
    expect(frames[1].data.prompt.name).toBe("Novo nome");
    expect(frames[2].data).toEqual({ action: "delete", promptId: p.id });
    expect(JSON.stringify(frames)).not.toContain(KEY);
    expect(w.capture.frames.some((f) => f.connectionId === agentSock || f.connectionId === otherSock)).toBe(false);
  });
});

describe("the API URL (baseUrl)", () => {
  const stage = process.env.STAGE;
  const inTheCloud = () => {
    process.env.STAGE = "prod";
    resetConfig();
  };
  afterEach(() => {
    if (stage === undefined) delete process.env.STAGE;
    else process.env.STAGE = stage;
    resetConfig();
  });
  const auth = () => ({ userId: w.admin.id, companyId: w.cid, profile: "admin" as const, super: false });

  it("on one machine accepts the local AI stand-in's loopback http URL", async () => {
    const res = await create({ ...base(), baseUrl: "http://127.0.0.1:4010/v1" });
    expect(res.status).toBe(200);
    expect(res.body.baseUrl).toBe("http://127.0.0.1:4010/v1");
  });

  it("in the cloud refuses plain http and hosts outside the public internet, on create and edit, writing nothing", async () => {
    const made = Prompt.parse((await create(base())).body);
    const before = PromptList.parse((await api("GET", "/api/prompt", { token: w.admin.token })).body).prompts.length;
    inTheCloud();
    for (const bad of ["http://api.example.com/v1", "https://127.0.0.1:4010/v1", "https://10.0.0.5/v1", "https://169.254.169.254/latest", "https://[::1]/v1", "https://user:pw@api.example.com/v1"]) {
      const body = { ...base(), baseUrl: bad };
      await expect(createPrompt(auth() as never, body as never), bad).rejects.toMatchObject({ code: "ERR_VALIDATION", data: { fields: [{ path: "baseUrl", message: "Invalid URL" }] } });
      await expect(updatePrompt(auth() as never, made.id, { baseUrl: bad } as never), bad).rejects.toMatchObject({ code: "ERR_VALIDATION" });
    }
    if (stage === undefined) delete process.env.STAGE;
    else process.env.STAGE = stage;
    resetConfig();
    expect(PromptList.parse((await api("GET", "/api/prompt", { token: w.admin.token })).body).prompts.length).toBe(before);
    expect((await getPrompt(w.cid, made.id))?.baseUrl).toBe("");
  });

  it("in the cloud never connects to a host name that resolves to a private or loopback address", async () => {
    inTheCloud();
    const client = aiClient("sk-x", "https://localhost:9/v1");
    await expect(client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "oi" }] })).rejects.toThrow();
    await expect(client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "oi" }] }).catch((e: Error) => String(e.cause ?? e.message))).resolves.toMatch(/address not allowed/);
  });
});
