/**
 * Queue integration rules (docs/product/integrations.md). Admins of a company whose plan has `useIntegrations`
 * (checked by the contract) list, create, edit and delete the company's integrations; another company's is 404
 * `ERR_NO_INTEGRATION_FOUND`. For n8n, webhook and typebot the `projectName` is the `name`. n8n and webhook
 * integrations get a `webhookSecret` when created without one typed (it signs every delivery). The credentials
 * (`jsonContent`, `webhookSecret`) are sealed at rest and answered masked (`./credentials.ts`); an edit replaces one
 * only when a new one is typed (absent, empty or the mask keep it). Every change dispatches
 * `queueIntegration.created|updated|deleted` (`./events.ts`).
 */
import { randomBytes } from "node:crypto";
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { integrationView, loadIntegration, loadIntegrations, newCredential, openJsonContent, sealedFields } from "./credentials.ts";
import { detectIntent, parseServiceAccount } from "./dialogflow.ts";
import "./errors.ts";
import "./events.ts";
import { deleteIntegrationItem, putNewIntegration, replaceIntegration } from "./repository.ts";
import {
  CompleteIntegration,
  INTEGRATIONS_PAGE_SIZE,
  IntegrationItem,
  type CreateIntegrationBody,
  type IntegrationsPage,
  type PageIntegrationsQuery,
  type QueueIntegration,
  type TestSessionBody,
  type UpdateIntegrationBody,
} from "./schema.ts";

/** A fresh secret for the HMAC signature of the n8n and webhook deliveries (32 random bytes, hex). */
const newWebhookSecret = () => randomBytes(32).toString("hex");

/** 404 `ERR_NO_INTEGRATION_FOUND` unless the integration exists in the caller's company. */
async function requireIntegration(auth: AuthContext, id: number): Promise<IntegrationItem> {
  const it = await loadIntegration(auth.companyId, id);
  if (!it) throw new AppError("ERR_NO_INTEGRATION_FOUND");
  return it;
}

/**
 * The item's derived fields: `projectName` = `name` but for dialogflow; the typed credentials sealed (the stored
 * ones kept otherwise), and a fresh secret for the types that POST when they have none.
 */
async function normalized(it: IntegrationItem, typed: { jsonContent?: string; webhookSecret?: string }): Promise<IntegrationItem> {
  const out = { ...it, jsonContent: "", webhookSecret: "" };
  if (out.type !== "dialogflow") out.projectName = out.name;
  const webhookSecret = newCredential(typed.webhookSecret) || ((out.type === "n8n" || out.type === "webhook") && !out.webhookSecretSealed ? newWebhookSecret() : "");
  return { ...out, ...(await sealedFields(it.companyId, { jsonContent: newCredential(typed.jsonContent), webhookSecret })) };
}

/** 400 `ERR_VALIDATION` when the merged item misses what its type needs. */
function checkComplete(it: IntegrationItem): void {
  const r = CompleteIntegration.safeParse({ ...it, jsonContent: it.jsonContentSealed ? "sealed" : "" });
  if (!r.success) throw new AppError("ERR_VALIDATION", { fields: r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
}

/** `GET /api/queueIntegration`: one page of {@link INTEGRATIONS_PAGE_SIZE} by name; `searchParam` matches the name. */
export async function pageIntegrations(auth: AuthContext, q: PageIntegrationsQuery): Promise<IntegrationsPage> {
  const term = normalizeName(q.searchParam ?? "");
  const all = (await loadIntegrations(auth.companyId))
    .filter((i) => !term || normalizeName(i.name).includes(term))
    .sort((a, b) => a.name.localeCompare(b.name, "pt", { sensitivity: "base" }) || a.id - b.id);
  const from = (q.pageNumber - 1) * INTEGRATIONS_PAGE_SIZE;
  const queueIntegrations = all.slice(from, from + INTEGRATIONS_PAGE_SIZE).map(integrationView);
  return { queueIntegrations, count: all.length, hasMore: from + queueIntegrations.length < all.length };
}

/** `GET /api/queueIntegration/{id}`. */
export async function showIntegration(auth: AuthContext, id: number): Promise<QueueIntegration> {
  return integrationView(await requireIntegration(auth, id));
}

/** `POST /api/queueIntegration`: a new integration in the caller's company (defaults of the stored item). */
export async function createIntegration(auth: AuthContext, body: CreateIntegrationBody): Promise<QueueIntegration> {
  const now = nowIso();
  const { jsonContent, webhookSecret, ...plain } = body;
  const item = await normalized(IntegrationItem.parse({ ...plain, id: await nextId(auth.companyId, "integration"), companyId: auth.companyId, createdAt: now, updatedAt: now }), { jsonContent, webhookSecret });
  checkComplete(item);
  await putNewIntegration(item);
  const record = integrationView(item);
  await dispatch({ type: "queueIntegration.created", companyId: auth.companyId, record });
  return record;
}

/** `PUT /api/queueIntegration/{id}`: the given fields replaced; 409 `ERR_CONFLICT` when it changed meanwhile. */
export async function updateIntegration(auth: AuthContext, id: number, body: UpdateIntegrationBody): Promise<QueueIntegration> {
  const before = await requireIntegration(auth, id);
  const { jsonContent, webhookSecret, ...plain } = body;
  const defined = Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined));
  const after = await normalized(IntegrationItem.parse({ ...before, ...defined, updatedAt: nowIso() }), { jsonContent, webhookSecret });
  checkComplete(after);
  if (!(await replaceIntegration(before, after))) throw new AppError("ERR_CONFLICT");
  const record = integrationView(after);
  await dispatch({ type: "queueIntegration.updated", companyId: auth.companyId, record });
  return record;
}

/**
 * `DELETE /api/queueIntegration/{id}`. Queues and connections still naming it simply stop using it (a ticket whose
 * integration is gone is answered as if it had none).
 */
export async function deleteIntegration(auth: AuthContext, id: number): Promise<void> {
  const before = await requireIntegration(auth, id);
  if (!(await deleteIntegrationItem(before))) throw new AppError("ERR_CONFLICT");
  await dispatch({ type: "queueIntegration.deleted", companyId: auth.companyId, id });
}

/**
 * `POST /api/queueIntegration/testSession`: one detect intent ("Olá") with the given Dialogflow credentials and
 * language, in a session of its own; the mask with an `id` tests that integration's stored credentials (404
 * `ERR_NO_INTEGRATION_FOUND` when not the caller's company's). 400 `ERR_INTEGRATION_TEST_FAILED` with the reason
 * when it fails.
 */
export async function testSession(auth: AuthContext, body: TestSessionBody): Promise<{ ok: true; replies: string[] }> {
  const typed = newCredential(body.jsonContent);
  const stored = !typed && body.id ? await requireIntegration(auth, body.id) : undefined;
  try {
    const key = parseServiceAccount(stored ? await openJsonContent(stored) : typed);
    const r = await detectIntent(key, body.projectName, `atende-test-${auth.companyId}-${auth.userId}`, body.language, { text: "Olá" });
    return { ok: true, replies: r.texts };
  } catch (err) {
    throw new AppError("ERR_INTEGRATION_TEST_FAILED", { reason: err instanceof Error ? err.message : "erro inesperado" });
  }
}
