/**
 * Prompts: an AI assistant per queue or connection (docs/product/prompts.md). The company's admins write the
 * instructions (`prompt`), the provider's key and the model's parameters; the assistant answers customers through it.
 * Three blocks:
 *
 * 1. the stored item (what DynamoDB holds: the keys only sealed, `settings/sealed.ts`),
 * 2. request schemas (bodies and path params; both wire names of the old clients accepted),
 * 3. response and realtime shapes (the keys masked, never in clear).
 */
import { z } from "zod";
import { zId } from "../common.ts";

/** The voices a prompt may answer with: `texto` (text replies) or one of the Brazilian-Portuguese neural voices. */
export const PROMPT_VOICES = [
  "texto",
  "pt-BR-FranciscaNeural",
  "pt-BR-AntonioNeural",
  "pt-BR-BrendaNeural",
  "pt-BR-DonatoNeural",
  "pt-BR-ElzaNeural",
  "pt-BR-FabioNeural",
  "pt-BR-GiovannaNeural",
  "pt-BR-HumbertoNeural",
  "pt-BR-JulioNeural",
  "pt-BR-LeilaNeural",
  "pt-BR-LeticiaNeural",
  "pt-BR-ManuelaNeural",
  "pt-BR-NicolauNeural",
  "pt-BR-ValerioNeural",
  "pt-BR-YaraNeural",
] as const;
export type PromptVoice = (typeof PROMPT_VOICES)[number];

/** Defaults of a new prompt. */
export const PROMPT_DEFAULTS = { voice: "texto", temperature: 1, maxTokens: 100, maxMessages: 10, model: "gpt-4o-mini" } as const;
/** Longest instructions text. */
export const PROMPT_TEXT_MAX = 20_000;
/** Most messages of the ticket a prompt may send as the conversation. */
export const MAX_MESSAGES_LIMIT = 50;
/** Most tokens a reply may take. */
export const MAX_TOKENS_LIMIT = 4096;
/** The error text of a prompt without a queue (the form shows it under the field). */
export const QUEUE_REQUIRED_MESSAGE = "Informe o setor";

// ---------------------------------------------------------------------------------------------
// 1. Stored item

/**
 * Prompt item `C#<cid>` / `PROMPT#<id>` (`keys.prompt`). `apiKeySealed` and `voiceKeySealed` are the provider's keys
 * sealed by the encryption port ("" = none); `apiKeyHint` / `voiceKeyHint` their last four characters, for the mask.
 * `baseUrl` "" = the provider's own; another value points the OpenAI client at an OpenAI-compatible provider.
 */
export const PromptItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  prompt: z.string(),
  apiKeySealed: z.string(),
  apiKeyHint: z.string().default(""),
  voice: z.enum(PROMPT_VOICES).default("texto"),
  voiceKeySealed: z.string().default(""),
  voiceKeyHint: z.string().default(""),
  voiceRegion: z.string().default(""),
  temperature: z.number().default(PROMPT_DEFAULTS.temperature),
  maxTokens: z.number().int().default(PROMPT_DEFAULTS.maxTokens),
  maxMessages: z.number().int().default(PROMPT_DEFAULTS.maxMessages),
  queueId: z.number().int(),
  model: z.string().default(PROMPT_DEFAULTS.model),
  baseUrl: z.string().default(""),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PromptItem = z.infer<typeof PromptItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

const required = (max: number) =>
  z
    .string({ error: (iss) => (iss.input == null ? "Obrigatório" : "Invalid input") })
    .trim()
    .min(1, "Obrigatório")
    .max(max, "Too Long!");
/** A number as forms send it (a JSON number or a numeric string). */
const num = (min: number, max: number, int = false) => {
  const base = int ? z.number().int() : z.number();
  return z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]).pipe(base.min(min).max(max));
};
/** `queueId`: required, "Informe o setor" when missing or empty. */
const queueId = z.unknown().transform((v, ctx): number => {
  const id = v === undefined || v === null || v === "" || v === 0 ? null : zId.safeParse(v);
  if (id?.success) return id.data;
  ctx.addIssue({ code: "custom", message: id ? "Invalid id" : QUEUE_REQUIRED_MESSAGE });
  return z.NEVER;
});
/** An http(s) URL of an OpenAI-compatible API (e.g. `https://api.example.com/v1`), or "" for the provider's own. */
const baseUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "Invalid URL");

const fields = {
  prompt: required(PROMPT_TEXT_MAX),
  voice: z.enum(PROMPT_VOICES),
  voiceKey: z.string().trim().max(500),
  voiceRegion: z.string().trim().max(50).regex(/^[a-z0-9-]*$/i, "Invalid region"),
  temperature: num(0, 2),
  maxTokens: num(1, MAX_TOKENS_LIMIT, true),
  maxMessages: num(1, MAX_MESSAGES_LIMIT, true),
  model: z.string().trim().min(1).max(100),
  baseUrl,
};

/** The old clients' other wire names, read as the product's when the product's is absent: `max_tokens`, `max_messages`, `api key`, `api_key`. */
const aliases = {
  max_tokens: fields.maxTokens.optional(),
  max_messages: fields.maxMessages.optional(),
  "api key": z.string().trim().max(500).optional(),
  api_key: z.string().trim().max(500).optional(),
};
type Aliased = { maxTokens?: number; maxMessages?: number; apiKey?: string; max_tokens?: number; max_messages?: number; "api key"?: string; api_key?: string };
function unalias<T extends Aliased>(v: T) {
  const { max_tokens, max_messages, "api key": spaced, api_key, ...rest } = v;
  return { ...rest, maxTokens: rest.maxTokens ?? max_tokens, maxMessages: rest.maxMessages ?? max_messages, apiKey: rest.apiKey ?? spaced ?? api_key };
}

const optionalFields = {
  voice: fields.voice.optional(),
  voiceKey: fields.voiceKey.optional(),
  voiceRegion: fields.voiceRegion.optional(),
  temperature: fields.temperature.optional(),
  maxTokens: fields.maxTokens.optional(),
  maxMessages: fields.maxMessages.optional(),
  model: fields.model.optional(),
  baseUrl: fields.baseUrl.optional(),
};

/**
 * `POST /api/prompt`: name, apiKey, prompt and queueId required ("Informe o setor" without a queue); voice (default
 * `texto`), voiceKey and voiceRegion (both needed for a voice other than `texto`), temperature 0-2 (default 1),
 * maxTokens 1-4096 (default 100), maxMessages 1-50 (default 10), model and baseUrl optional. `max_tokens`,
 * `max_messages` and `api key` are read as `maxTokens`, `maxMessages` and `apiKey`.
 */
export const CreatePromptBody = z
  .object({ name: required(100), apiKey: z.string().trim().max(500).optional(), queueId, prompt: fields.prompt, ...optionalFields, ...aliases })
  .transform((v, ctx) => {
    const out = unalias(v);
    if (!out.apiKey) {
      ctx.addIssue({ code: "custom", path: ["apiKey"], message: "Obrigatório" });
      return z.NEVER;
    }
    return { ...out, apiKey: out.apiKey };
  });
export type CreatePromptBody = z.infer<typeof CreatePromptBody>;

/**
 * `PUT /api/prompt/{id}`: every field optional (absent = unchanged). `apiKey` / `voiceKey` absent, empty or the
 * mask the API answered keep the stored key: a key is replaced only when a new one is typed.
 */
export const UpdatePromptBody = z
  .object({
    name: required(100).optional(),
    apiKey: z.string().trim().max(500).optional(),
    queueId: queueId.optional(),
    prompt: fields.prompt.optional(),
    ...optionalFields,
    ...aliases,
  })
  .transform(unalias);
export type UpdatePromptBody = z.infer<typeof UpdatePromptBody>;

export const PromptIdParams = z.object({ id: zId });

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/** A stored key in answers: `••••••••` followed by the key's last four characters (`settings/mask.ts`). */
export { MASK, isMasked, maskKey } from "../settings/mask.ts";

/**
 * A prompt as every route and frame carries it: the stored fields without the sealed keys; `apiKey` and `voiceKey`
 * masked (never in clear), `queue` the prompt's queue (null when it was deleted).
 */
export const Prompt = PromptItem.omit({ apiKeySealed: true, apiKeyHint: true, voiceKeySealed: true, voiceKeyHint: true }).extend({
  apiKey: z.string(),
  voiceKey: z.string(),
  queue: z.object({ id: z.number().int(), name: z.string(), color: z.string() }).nullable(),
});
export type Prompt = z.infer<typeof Prompt>;

/** `GET /api/prompt`: the company's prompts by name. */
export const PromptList = z.object({ prompts: z.array(Prompt) });
export type PromptList = z.infer<typeof PromptList>;

/** `DELETE /api/prompt/{id}`. */
export const PromptDeleted = z.object({ message: z.string() });

/** `company-{id}-prompt` frames: `{action: "create"|"update", prompt}` or `{action: "delete", promptId}`. */
export const PromptFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), prompt: Prompt }),
  z.object({ action: z.literal("update"), prompt: Prompt }),
  z.object({ action: z.literal("delete"), promptId: z.number().int() }),
]);
export type PromptFrame = z.infer<typeof PromptFrame>;
