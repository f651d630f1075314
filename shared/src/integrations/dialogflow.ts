/**
 * Dialogflow ES over its REST transport (docs/product/integrations.md#dialogflow): the service account of the
 * integration's `jsonContent` signs an OAuth JWT (RS256, `jose`), trades it at the key's `token_uri` for an access
 * token (kept until a minute before it expires), and each customer message is one
 * `POST {DIALOGFLOW_API_URL}/v2/projects/{project}/agent/sessions/{session}:detectIntent` — text, or an OGG/Opus voice
 * note as `inputAudio` — in the integration's language.
 */
import { importPKCS8, SignJWT } from "jose";
import { z } from "zod";
import { getConfig } from "../config.ts";

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";

/** The fields of a Google service-account JSON key this adapter reads. */
export const ServiceAccountKey = z.object({
  project_id: z.string().min(1).optional(),
  private_key: z.string().min(1),
  client_email: z.string().min(1),
  token_uri: z.string().url().default("https://oauth2.googleapis.com/token"),
});
export type ServiceAccountKey = z.infer<typeof ServiceAccountKey>;

/** Parses `jsonContent`; throws an `Error` with a short reason a person can act on. */
export function parseServiceAccount(jsonContent: string): ServiceAccountKey {
  let raw: unknown;
  try {
    raw = JSON.parse(jsonContent);
  } catch {
    throw new Error("o JSON da conta de serviço é inválido");
  }
  const parsed = ServiceAccountKey.safeParse(raw);
  if (!parsed.success) throw new Error("a conta de serviço não tem private_key e client_email");
  return parsed.data;
}

const tokens = new Map<string, { token: string; until: number }>();

/** An OAuth access token for the service account (cached per account until a minute before it expires). */
export async function accessToken(key: ServiceAccountKey, nowMs = Date.now()): Promise<string> {
  const cacheKey = `${key.client_email}|${key.token_uri}`;
  const hit = tokens.get(cacheKey);
  if (hit && hit.until > nowMs) return hit.token;
  const iat = Math.floor(nowMs / 1000);
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .setIssuer(key.client_email)
    .setSubject(key.client_email)
    .setAudience(key.token_uri)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(await importPKCS8(key.private_key, "RS256"));
  const res = await fetch(key.token_uri, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
    signal: AbortSignal.timeout(getConfig().PROVIDER_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`o Google recusou a conta de serviço (HTTP ${res.status})`);
  const body = z.object({ access_token: z.string().min(1), expires_in: z.number().optional() }).parse(await res.json());
  tokens.set(cacheKey, { token: body.access_token, until: nowMs + ((body.expires_in ?? 3600) - 60) * 1000 });
  return body.access_token;
}

/** Forgets the cached tokens (tests). */
export function clearDialogflowTokens(): void {
  tokens.clear();
}

const DetectIntentResponse = z.object({
  queryResult: z
    .object({
      fulfillmentText: z.string().optional(),
      fulfillmentMessages: z.array(z.object({ text: z.object({ text: z.array(z.string()).optional() }).optional() }).passthrough()).optional(),
      intent: z.object({ endInteraction: z.boolean().optional() }).passthrough().optional(),
      diagnosticInfo: z.record(z.string(), z.unknown()).optional(),
    })
    .passthrough()
    .optional(),
});

/** What the agent answered: its texts (in order) and whether it ended the conversation. */
export interface DetectIntentResult {
  texts: string[];
  endConversation: boolean;
}

/** The customer's input: a text, or a voice note (OGG/Opus bytes). */
export type DialogflowInput = { text: string } | { audio: Buffer };

/**
 * One detect intent in session `sessionId` of project `projectName` in `languageCode`. Errors: an `Error` for a
 * refused token, an HTTP failure or an answer that is not Dialogflow's.
 */
export async function detectIntent(key: ServiceAccountKey, projectName: string, sessionId: string, languageCode: string, input: DialogflowInput): Promise<DetectIntentResult> {
  const token = await accessToken(key);
  const url = `${getConfig().DIALOGFLOW_API_URL}/v2/projects/${encodeURIComponent(projectName)}/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`;
  const body =
    "text" in input
      ? { queryInput: { text: { text: input.text.slice(0, 256), languageCode } } }
      : { queryInput: { audioConfig: { audioEncoding: "AUDIO_ENCODING_OGG_OPUS", sampleRateHertz: 16000, languageCode } }, inputAudio: input.audio.toString("base64") };
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(getConfig().PROVIDER_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`o Dialogflow respondeu HTTP ${res.status}`);
  const parsed = DetectIntentResponse.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new Error("resposta do Dialogflow em formato inesperado");
  const q = parsed.data.queryResult ?? {};
  const fromMessages = (q.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []).filter((t) => t.trim());
  const texts = fromMessages.length ? fromMessages : q.fulfillmentText?.trim() ? [q.fulfillmentText] : [];
  const endConversation = q.intent?.endInteraction === true || q.diagnosticInfo?.end_conversation === true;
  return { texts, endConversation };
}
