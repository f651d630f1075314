/**
 * Queue integration rules (docs/product/integrations.md). Admins of a company whose plan has `useIntegrations`
 * (checked by the contract) list, create, edit and delete the company's integrations; another company's is 404
 * `ERR_NO_INTEGRATION_FOUND`. For n8n, webhook and typebot the `projectName` is the `name`. n8n and webhook
 * integrations get a `webhookSecret` when created (it signs every delivery). Every change dispatches
 * `queueIntegration.created|updated|deleted` (`./events.ts`).
 */
import { randomBytes } from "node:crypto";
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { detectIntent, parseServiceAccount } from "./dialogflow.ts";
import "./errors.ts";
import "./events.ts";
import { deleteIntegrationItem, getIntegration, listIntegrations, putNewIntegration, replaceIntegration } from "./repository.ts";
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
  const it = await getIntegration(auth.companyId, id);
  if (!it) throw new AppError("ERR_NO_INTEGRATION_FOUND");
  return it;
}

/** The item's derived fields: `projectName` = `name` but for dialogflow; a secret for the types that POST. */
function normalized(it: IntegrationItem): IntegrationItem {
  const out = { ...it };
  if (out.type !== "dialogflow") out.projectName = out.name;
  if ((out.type === "n8n" || out.type === "webhook") && !out.webhookSecret) out.webhookSecret = newWebhookSecret();
  return out;
}

/** 400 `ERR_VALIDATION` when the merged item misses what its type needs. */
function checkComplete(it: IntegrationItem): void {
  const r = CompleteIntegration.safeParse(it);
  if (!r.success) throw new AppError("ERR_VALIDATION", { fields: r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
}

/** `GET /api/queueIntegration`: one page of {@link INTEGRATIONS_PAGE_SIZE} by name; `searchParam` matches the name. */
export async function pageIntegrations(auth: AuthContext, q: PageIntegrationsQuery): Promise<IntegrationsPage> {
  const term = normalizeName(q.searchParam ?? "");
  const all = (await listIntegrations(auth.companyId))
    .filter((i) => !term || normalizeName(i.name).includes(term))
    .sort((a, b) => a.name.localeCompare(b.name, "pt", { sensitivity: "base" }) || a.id - b.id);
  const from = (q.pageNumber - 1) * INTEGRATIONS_PAGE_SIZE;
  const queueIntegrations = all.slice(from, from + INTEGRATIONS_PAGE_SIZE);
  return { queueIntegrations, count: all.length, hasMore: from + queueIntegrations.length < all.length };
}

/** `GET /api/queueIntegration/{id}`. */
export async function showIntegration(auth: AuthContext, id: number): Promise<QueueIntegration> {
  return requireIntegration(auth, id);
}

/** `POST /api/queueIntegration`: a new integration in the caller's company (defaults of the stored item). */
export async function createIntegration(auth: AuthContext, body: CreateIntegrationBody): Promise<QueueIntegration> {
  const now = nowIso();
  const item = normalized(IntegrationItem.parse({ ...body, id: await nextId(auth.companyId, "integration"), companyId: auth.companyId, createdAt: now, updatedAt: now }));
  await putNewIntegration(item);
  await dispatch({ type: "queueIntegration.created", companyId: auth.companyId, record: item });
  return item;
}

/** `PUT /api/queueIntegration/{id}`: the given fields replaced; 409 `ERR_CONFLICT` when it changed meanwhile. */
export async function updateIntegration(auth: AuthContext, id: number, body: UpdateIntegrationBody): Promise<QueueIntegration> {
  const before = await requireIntegration(auth, id);
  const defined = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const after = normalized(IntegrationItem.parse({ ...before, ...defined, updatedAt: nowIso() }));
  checkComplete(after);
  if (!(await replaceIntegration(before, after))) throw new AppError("ERR_CONFLICT");
  await dispatch({ type: "queueIntegration.updated", companyId: auth.companyId, record: after });
  return after;
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
 * language, in a session of its own. 400 `ERR_INTEGRATION_TEST_FAILED` with the reason when it fails.
 */
export async function testSession(auth: AuthContext, body: TestSessionBody): Promise<{ ok: true; replies: string[] }> {
  try {
    const key = parseServiceAccount(body.jsonContent);
    const r = await detectIntent(key, body.projectName, `atende-test-${auth.companyId}-${auth.userId}`, body.language, { text: "Olá" });
    return { ok: true, replies: r.texts };
  } catch (err) {
    throw new AppError("ERR_INTEGRATION_TEST_FAILED", { reason: err instanceof Error ? err.message : "erro inesperado" });
  }
}
