/**
 * A queue integration's credentials at rest (docs/product/integrations.md#credentials): Dialogflow's `jsonContent`
 * and the n8n / webhook `webhookSecret` are stored only sealed by the credentials' sealing port
 * (`settings/sealed.ts`: KMS in the cloud, a local key on one machine) and answered only masked
 * (`settings/mask.ts`). An item written before sealing still holds them in clear: the bots read them as they are
 * ({@link openJsonContent}, {@link openWebhookSecret}; the runner and the tick may only open sealed values), and
 * the admins' first read through {@link loadIntegration} / {@link loadIntegrations} (the integrations page, which
 * may seal) seals them and rewrites the item (conditioned on its `updatedAt`, which it keeps).
 */
import { isMasked, hintOf, maskKey } from "../settings/mask.ts";
import { openSetting, type SealContext, sealSetting } from "../settings/sealed.ts";
import { getIntegration, listIntegrations, replaceIntegration } from "./repository.ts";
import type { IntegrationItem, QueueIntegration } from "./schema.ts";

/** The sealing contexts of an integration's two credentials. */
export const jsonContentContext = (companyId: number): SealContext => ({ companyId, key: "integration.jsonContent" });
export const webhookSecretContext = (companyId: number): SealContext => ({ companyId, key: "integration.webhookSecret" });

/** An integration as routes and frames carry it: the credentials masked, the sealed fields left out. */
export function integrationView(it: IntegrationItem): QueueIntegration {
  const { jsonContentSealed, jsonContentHint, webhookSecretSealed, webhookSecretHint, ...rest } = it;
  return {
    ...rest,
    jsonContent: maskKey(jsonContentHint, !!jsonContentSealed),
    webhookSecret: maskKey(webhookSecretHint, !!webhookSecretSealed),
  };
}

/** A typed credential that replaces the stored one: not absent, not empty, not the mask. */
export const newCredential = (typed: string | undefined): string => (typed && !isMasked(typed) ? typed : "");

/** The sealed fields of the given new credentials (only those given). @throws Error when KMS refuses. */
export async function sealedFields(companyId: number, c: { jsonContent?: string; webhookSecret?: string }): Promise<Partial<IntegrationItem>> {
  const out: Partial<IntegrationItem> = {};
  if (c.jsonContent) Object.assign(out, { jsonContentSealed: await sealSetting(c.jsonContent, jsonContentContext(companyId)), jsonContentHint: hintOf(c.jsonContent), jsonContent: "" });
  if (c.webhookSecret) Object.assign(out, { webhookSecretSealed: await sealSetting(c.webhookSecret, webhookSecretContext(companyId)), webhookSecretHint: hintOf(c.webhookSecret), webhookSecret: "" });
  return out;
}

/** The Dialogflow service account's JSON key in clear ("" when none). @throws Error when it cannot be opened. */
export async function openJsonContent(it: IntegrationItem): Promise<string> {
  return it.jsonContentSealed ? openSetting(it.jsonContentSealed, jsonContentContext(it.companyId)) : it.jsonContent;
}

/** The HMAC secret of the n8n / webhook deliveries in clear ("" when none). @throws Error when it cannot be opened. */
export async function openWebhookSecret(it: IntegrationItem): Promise<string> {
  return it.webhookSecretSealed ? openSetting(it.webhookSecretSealed, webhookSecretContext(it.companyId)) : it.webhookSecret;
}

/** The item with any credential still in clear sealed, rewritten when it changed (a lost race leaves it for the next read). */
async function sealedAtRest(it: IntegrationItem): Promise<IntegrationItem> {
  const clear = { jsonContent: it.jsonContentSealed ? "" : it.jsonContent, webhookSecret: it.webhookSecretSealed ? "" : it.webhookSecret };
  if (!clear.jsonContent && !clear.webhookSecret && !it.jsonContent && !it.webhookSecret) return it;
  const after: IntegrationItem = { ...it, jsonContent: "", webhookSecret: "", ...(await sealedFields(it.companyId, clear)) };
  await replaceIntegration(it, after);
  return after;
}

/** One integration of the company, its credentials sealed at rest, or `undefined`. */
export async function loadIntegration(companyId: number, id: number): Promise<IntegrationItem | undefined> {
  const it = await getIntegration(companyId, id);
  return it && sealedAtRest(it);
}

/** Every integration of the company, in id order, their credentials sealed at rest. */
export async function loadIntegrations(companyId: number): Promise<IntegrationItem[]> {
  return Promise.all((await listIntegrations(companyId)).map(sealedAtRest));
}
