/**
 * Queue integrations (chatbot flow projects a connection or a queue hands its customers to): Typebot, n8n, a plain
 * webhook or Dialogflow (docs/product/integrations.md). Three blocks:
 *
 * 1. the stored item (what DynamoDB holds),
 * 2. request schemas — the edge parses every input with these,
 * 3. response and realtime shapes (what the API answers and what `company-{id}-queueIntegration` carries).
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";
import { MASK } from "../settings/mask.ts";

/** Integrations per page of `GET /api/queueIntegration`. */
export const INTEGRATIONS_PAGE_SIZE = 40;
export const INTEGRATION_TYPES = ["typebot", "n8n", "webhook", "dialogflow"] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const DIALOGFLOW_LANGUAGES = ["pt-BR", "en", "es"] as const;
/** Typebot defaults: wait 1000 ms between the bot's messages; 1 minute of silence restarts the session. */
export const TYPEBOT_DELAY_DEFAULT = 1000;
export const TYPEBOT_EXPIRES_DEFAULT = 1;
/** Longest wait between two bot messages (the delay holds the customer's ingest; longer waits are cut to this). */
export const TYPEBOT_DELAY_MAX = 10_000;

// ---------------------------------------------------------------------------------------------
// 1. Stored item

/**
 * Integration item `C#<cid>` / `QINT#<id>` (`keys.integration`). `projectName` equals `name` for every type but
 * dialogflow (the Google Cloud project of `jsonContent`, the service account's JSON key). `urlN8N` is the flow's URL
 * (n8n, webhook) or the Typebot server's base URL (typebot). The two credentials are stored only sealed by the
 * credentials' sealing port (`settings/sealed.ts`), each with its last four characters for the mask:
 * `jsonContentSealed` (dialogflow) and `webhookSecretSealed` (the HMAC secret of the n8n and webhook deliveries).
 * `jsonContent` / `webhookSecret` in clear are only read from items written before sealing (the next read seals them,
 * `credentials.ts`); nothing writes them any more. `typebotExpires` is in minutes (0: the session never expires),
 * `typebotDelayMessage` in milliseconds.
 */
export const IntegrationItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  type: z.enum(INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string().default(""),
  jsonContent: z.string().default(""),
  language: z.string().default(""),
  urlN8N: z.string().default(""),
  typebotSlug: z.string().default(""),
  typebotExpires: z.number().int().default(TYPEBOT_EXPIRES_DEFAULT),
  typebotDelayMessage: z.number().int().default(TYPEBOT_DELAY_DEFAULT),
  typebotKeywordFinish: z.string().default(""),
  typebotKeywordRestart: z.string().default(""),
  typebotUnknownMessage: z.string().default(""),
  typebotRestartMessage: z.string().default(""),
  webhookSecret: z.string().default(""),
  jsonContentSealed: z.string().default(""),
  jsonContentHint: z.string().default(""),
  webhookSecretSealed: z.string().default(""),
  webhookSecretHint: z.string().default(""),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type IntegrationItem = z.infer<typeof IntegrationItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

/** name: required ("Required"), 2-50 characters ("Too Short!", "Too Long!"). */
const name = z
  .string({ error: (iss) => (iss.input == null ? "Required" : "Invalid input") })
  .trim()
  .superRefine((v, ctx) => {
    if (!v) ctx.addIssue({ code: "custom", message: "Required" });
    else if (v.length < 2) ctx.addIssue({ code: "custom", message: "Too Short!" });
    else if (v.length > 50) ctx.addIssue({ code: "custom", message: "Too Long!" });
  });
const url = z.string().trim().max(2000).refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "Invalid URL");
const text = z.string().max(4000);
const minutes = z.coerce.number().int().min(0).max(24 * 60);
const millis = z.coerce.number().int().min(0).max(TYPEBOT_DELAY_MAX);

const fields = {
  type: z.enum(INTEGRATION_TYPES),
  name,
  projectName: z.string().trim().max(200),
  jsonContent: z.string().max(20_000),
  language: z.enum(DIALOGFLOW_LANGUAGES).or(z.literal("")),
  urlN8N: url,
  typebotSlug: z.string().trim().max(200),
  typebotExpires: minutes,
  typebotDelayMessage: millis,
  typebotKeywordFinish: z.string().trim().max(100),
  typebotKeywordRestart: z.string().trim().max(100),
  typebotUnknownMessage: text,
  typebotRestartMessage: text,
  /** A signing secret typed by the admin (the dialog proposes a random one); absent, empty or the mask keep the stored one. */
  webhookSecret: z.string().trim().max(200).refine((v) => v === "" || v.includes(MASK) || v.length >= 16, "Too Short!"),
};

/** What each type needs: URL (n8n, webhook, typebot), slug (typebot), language and credentials (dialogflow). */
function requireByType(v: Partial<Record<keyof typeof fields, unknown>>, ctx: z.RefinementCtx): void {
  const missing = (path: string) => ctx.addIssue({ code: "custom", path: [path], message: "Required" });
  if (v.type !== "dialogflow" && !v.urlN8N) missing("urlN8N");
  if (v.type === "typebot" && !v.typebotSlug) missing("typebotSlug");
  if (v.type === "dialogflow") {
    if (!v.language) missing("language");
    if (!v.jsonContent) missing("jsonContent");
  }
}

/**
 * `POST /api/queueIntegration`: type (default typebot) and name required; the other fields default as the stored
 * item. n8n, webhook and typebot need `urlN8N`, typebot its `typebotSlug`, dialogflow `language` and `jsonContent`.
 */
export const CreateIntegrationBody = z
  .object(fields)
  .partial()
  .extend({ type: fields.type.default("typebot"), name })
  .superRefine(requireByType);
export type CreateIntegrationBody = z.infer<typeof CreateIntegrationBody>;

/** `PUT /api/queueIntegration/{id}`: every field optional (absent = unchanged); the result must still be complete for its type. */
export const UpdateIntegrationBody = z.object(fields).partial();
export type UpdateIntegrationBody = z.infer<typeof UpdateIntegrationBody>;
/** The same per-type check on a whole item (after merging an update). */
export const CompleteIntegration = z.object({}).passthrough().superRefine(requireByType);

/** `GET /api/queueIntegration`: `searchParam` (name contains, accent- and case-insensitive), `pageNumber`. */
export const PageIntegrationsQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber: zPageNumber });
export type PageIntegrationsQuery = z.infer<typeof PageIntegrationsQuery>;

export const IntegrationIdParams = z.object({ id: zId });

/**
 * `POST /api/queueIntegration/testSession`: a Dialogflow project's credentials and language, checked with one
 * detectIntent. `jsonContent` as the API answered it (the mask) tests the stored credentials of integration `id`.
 */
export const TestSessionBody = z.object({
  id: zId.optional(),
  projectName: z.string().trim().min(1).max(200),
  jsonContent: z.string().min(1).max(20_000),
  language: z.enum(DIALOGFLOW_LANGUAGES),
});
export type TestSessionBody = z.infer<typeof TestSessionBody>;

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/**
 * An integration as every route and frame carries it (admins only): the stored fields without the sealed
 * credentials; `jsonContent` and `webhookSecret` masked, never in clear ("" when none).
 */
export const QueueIntegration = IntegrationItem.omit({ jsonContentSealed: true, jsonContentHint: true, webhookSecretSealed: true, webhookSecretHint: true });
export type QueueIntegration = z.infer<typeof QueueIntegration>;

/** `GET /api/queueIntegration`: one page by name; `count` = every match. */
export const IntegrationsPage = z.object({ queueIntegrations: z.array(QueueIntegration), count: z.number().int(), hasMore: z.boolean() });
export type IntegrationsPage = z.infer<typeof IntegrationsPage>;

/** `DELETE /api/queueIntegration/{id}`. */
export const IntegrationDeleted = z.object({ message: z.string() });

/** `POST /api/queueIntegration/testSession`: what the agent answered to "Olá" (its fulfillment texts). */
export const TestSessionResult = z.object({ ok: z.literal(true), replies: z.array(z.string()) });

/** `company-{id}-queueIntegration` frames: `{action: "create"|"update", queueIntegration}` or `{action: "delete", integrationId}`. */
export const IntegrationFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), queueIntegration: QueueIntegration }),
  z.object({ action: z.literal("update"), queueIntegration: QueueIntegration }),
  z.object({ action: z.literal("delete"), integrationId: z.number().int() }),
]);
export type IntegrationFrame = z.infer<typeof IntegrationFrame>;

/**
 * A ticket's conversation with its integration's bot (`keys.botSession`, in the ticket's partition): the Typebot
 * session id, when the customer last spoke to it. Deleted when the session restarts, expires or hands over.
 */
export const BotSessionItem = z.object({
  companyId: z.number().int(),
  ticketId: z.number().int(),
  integrationId: z.number().int(),
  sessionId: z.string(),
  lastAt: z.string(),
  /** The texts of the choices last offered as numbered lines (an answer "2" goes to Typebot as the second). */
  choices: z.array(z.string()).default([]),
});
export type BotSessionItem = z.infer<typeof BotSessionItem>;
