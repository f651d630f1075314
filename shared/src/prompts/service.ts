/**
 * Prompt rules (docs/product/prompts.md): the company's admins list, create, edit and delete the AI prompts of their
 * company (the contract checks the right and the plan flag `useOpenAi`).
 *
 * - A prompt belongs to a queue of the company (`queueId` required, "Informe o setor"; another company's or unknown
 *   queue: 404 `ERR_NO_QUEUE_FOUND`, nothing written).
 * - The provider's keys (`apiKey`, `voiceKey`) are sealed by the credentials' sealing port (`settings/sealed.ts`) before they are stored and never
 *   answered in clear: answers and frames carry `••••••••` + the last four characters. An edit replaces a key only
 *   when a new one is typed (absent, empty or the mask keep the stored one).
 * - A voice other than `texto` needs `voiceKey` and `voiceRegion` (400 `ERR_VALIDATION` on the missing one).
 * - `baseUrl` follows the outbound URL rule (`net/public-url.ts`): in the cloud https to a public host only (400
 *   `ERR_VALIDATION` on `baseUrl`, nothing written); on one machine http and loopback too (the local AI stand-in).
 * - Every change dispatches `prompt.created|updated|deleted` (`./events.ts`).
 */
import type { AuthContext } from "../auth/tokens.ts";
import { laterIso, nowIso } from "../common.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { publicUrl } from "../net/public-url.ts";
import { getQueue, listQueues } from "../queues/repository.ts";
import { sealSetting, type SealContext } from "../settings/sealed.ts";
import type { QueueItem } from "../queues/schema.ts";
import "./errors.ts";
import "./events.ts";
import { deletePromptItem, getPrompt, listPrompts, putNewPrompt, replacePrompt } from "./repository.ts";
import { PROMPT_DEFAULTS, isMasked, maskKey, type CreatePromptBody, type Prompt, type PromptItem, type PromptList, type UpdatePromptBody } from "./schema.ts";

/** The sealing contexts of a prompt's two keys (the credentials' sealing port: KMS in the cloud, a local key on one machine). */
export const apiKeyContext = (companyId: number): SealContext => ({ companyId, key: "prompt.apiKey" });
export const voiceKeyContext = (companyId: number): SealContext => ({ companyId, key: "prompt.voiceKey" });

/** A prompt as the API answers it: keys masked, its queue's name and colour. */
export function promptView(p: PromptItem, queue: Pick<QueueItem, "id" | "name" | "color"> | undefined): Prompt {
  const { apiKeySealed, apiKeyHint, voiceKeySealed, voiceKeyHint, ...rest } = p;
  return {
    ...rest,
    apiKey: maskKey(apiKeyHint, !!apiKeySealed),
    voiceKey: maskKey(voiceKeyHint, !!voiceKeySealed),
    queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
  };
}

const hintOf = (key: string) => key.slice(-4);

async function requirePrompt(auth: AuthContext, id: number): Promise<PromptItem> {
  const p = await getPrompt(auth.companyId, id);
  if (!p) throw new AppError("ERR_NO_PROMPT_FOUND");
  return p;
}

async function requireQueue(companyId: number, queueId: number): Promise<QueueItem> {
  const q = await getQueue(companyId, queueId);
  if (!q) throw new AppError("ERR_NO_QUEUE_FOUND");
  return q;
}

/** 400 when a voice other than `texto` lacks its key or region. */
function checkVoice(p: Pick<PromptItem, "voice" | "voiceKeySealed" | "voiceRegion">): void {
  if (p.voice === "texto") return;
  const fields = [];
  if (!p.voiceKeySealed) fields.push({ path: "voiceKey", message: "Obrigatório" });
  if (!p.voiceRegion) fields.push({ path: "voiceRegion", message: "Obrigatório" });
  if (fields.length) throw new AppError("ERR_VALIDATION", { fields });
}

/** 400 `ERR_VALIDATION` on `baseUrl` when it breaks the outbound URL rule ("" = the provider's own: fine). */
function checkBaseUrl(baseUrl: string | undefined): void {
  if (baseUrl && !publicUrl(baseUrl)) throw new AppError("ERR_VALIDATION", { fields: [{ path: "baseUrl", message: "Invalid URL" }] });
}

/** `GET /api/prompt`: the company's prompts by name → `{prompts}`. */
export async function listPromptsFor(auth: AuthContext): Promise<PromptList> {
  const [items, queues] = await Promise.all([listPrompts(auth.companyId), listQueues(auth.companyId)]);
  const byId = new Map(queues.map((q) => [q.id, q]));
  const prompts = items.sort((a, b) => a.name.localeCompare(b.name, "pt", { sensitivity: "base" }) || a.id - b.id).map((p) => promptView(p, byId.get(p.queueId)));
  return { prompts };
}

/** `GET /api/prompt/{id}`: 404 `ERR_NO_PROMPT_FOUND` when not the caller's company's. */
export async function showPrompt(auth: AuthContext, id: number): Promise<Prompt> {
  const p = await requirePrompt(auth, id);
  return promptView(p, await getQueue(auth.companyId, p.queueId));
}

/** `POST /api/prompt`: a prompt of the caller's company with the defaults; dispatches `prompt.created`. */
export async function createPrompt(auth: AuthContext, body: CreatePromptBody): Promise<Prompt> {
  const cid = auth.companyId;
  checkBaseUrl(body.baseUrl);
  const queue = await requireQueue(cid, body.queueId);
  const voiceKey = body.voiceKey && !isMasked(body.voiceKey) ? body.voiceKey : "";
  const draft = {
    voice: body.voice ?? PROMPT_DEFAULTS.voice,
    voiceKeySealed: voiceKey ? "sealed" : "",
    voiceRegion: body.voiceRegion ?? "",
  };
  checkVoice(draft);
  const now = nowIso();
  const item: PromptItem = {
    id: await nextId(cid, "prompt"),
    companyId: cid,
    name: body.name,
    prompt: body.prompt,
    apiKeySealed: await sealSetting(body.apiKey, apiKeyContext(cid)),
    apiKeyHint: hintOf(body.apiKey),
    voice: draft.voice,
    voiceKeySealed: await sealSetting(voiceKey, voiceKeyContext(cid)),
    voiceKeyHint: hintOf(voiceKey),
    voiceRegion: draft.voiceRegion,
    temperature: body.temperature ?? PROMPT_DEFAULTS.temperature,
    maxTokens: body.maxTokens ?? PROMPT_DEFAULTS.maxTokens,
    maxMessages: body.maxMessages ?? PROMPT_DEFAULTS.maxMessages,
    queueId: queue.id,
    model: body.model ?? PROMPT_DEFAULTS.model,
    baseUrl: body.baseUrl ?? "",
    createdAt: now,
    updatedAt: now,
  };
  await putNewPrompt(item);
  const prompt = promptView(item, queue);
  await dispatch({ type: "prompt.created", companyId: cid, prompt });
  return prompt;
}

/** `PUT /api/prompt/{id}`: absent fields unchanged; a key replaced only when a new one is typed. 409 on a concurrent edit. */
export async function updatePrompt(auth: AuthContext, id: number, body: UpdatePromptBody): Promise<Prompt> {
  const cid = auth.companyId;
  checkBaseUrl(body.baseUrl);
  const before = await requirePrompt(auth, id);
  const queue = await requireQueue(cid, body.queueId ?? before.queueId);
  const newApiKey = body.apiKey && !isMasked(body.apiKey) ? body.apiKey : "";
  const newVoiceKey = body.voiceKey && !isMasked(body.voiceKey) ? body.voiceKey : "";
  const { apiKey: _a, voiceKey: _v, queueId: _q, ...plain } = body;
  const defined = Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined));
  const after: PromptItem = {
    ...before,
    ...defined,
    queueId: queue.id,
    ...(newApiKey ? { apiKeySealed: await sealSetting(newApiKey, apiKeyContext(cid)), apiKeyHint: hintOf(newApiKey) } : {}),
    ...(newVoiceKey ? { voiceKeySealed: await sealSetting(newVoiceKey, voiceKeyContext(cid)), voiceKeyHint: hintOf(newVoiceKey) } : {}),
    updatedAt: laterIso(before.updatedAt),
  };
  checkVoice(after);
  if (!(await replacePrompt(before, after))) throw new AppError("ERR_CONFLICT");
  const prompt = promptView(after, queue);
  await dispatch({ type: "prompt.updated", companyId: cid, prompt });
  return prompt;
}

/** `DELETE /api/prompt/{id}`: dispatches `prompt.deleted`. Queues and connections naming it no longer get answers. */
export async function deletePrompt(auth: AuthContext, id: number): Promise<void> {
  const before = await requirePrompt(auth, id);
  if (!(await deletePromptItem(before))) throw new AppError("ERR_CONFLICT");
  await dispatch({ type: "prompt.deleted", companyId: auth.companyId, promptId: id });
}
