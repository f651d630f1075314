/**
 * The AI provider's adapters (docs/product/prompts.md#the-assistant):
 *
 * - chat and transcription through the official `openai` package: Chat Completions (`model`, the system text and the
 *   conversation, `temperature`, `max_tokens`) and the audio transcriptions API (`whisper-1`). The prompt's `baseUrl`
 *   points the client at an OpenAI-compatible provider (the platform default is the package's: `OPENAI_BASE_URL`, else
 *   the provider's own); 30 s per call, one retry.
 * - voice replies through the speech service's text-to-speech REST endpoint (`SPEECH_TTS_URL`, `{region}` the
 *   prompt's `voiceRegion`, key in `Ocp-Apim-Subscription-Key`): SSML in, OGG/Opus out, the format WhatsApp plays as a
 *   voice note. The provider's speech SDK speaks its own WebSocket protocol to the provider's host only, which no local
 *   stand-in speaks; the REST endpoint is the provider's documented equivalent.
 */
import { assertPublicHost, oneMachine } from "../net/public-url.ts";
import OpenAI, { toFile } from "openai";
import { getConfig } from "../config.ts";

/** The transcription model for voice notes. */
export const TRANSCRIPTION_MODEL = "whisper-1";

export interface ChatTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatAnswer {
  text: string;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
}

/**
 * The fetch of a prompt's client: in the cloud each request's host must resolve to public addresses only and
 * redirects are not followed (the outbound URL rule, `net/public-url.ts`), so a prompt's API URL never reaches into
 * our network; on one machine the plain fetch (the local AI stand-in listens on loopback).
 */
const publicFetch: typeof fetch = async (input, init) => {
  if (oneMachine()) return fetch(input, init);
  await assertPublicHost(new URL(input instanceof Request ? input.url : String(input)));
  return fetch(input, { ...init, redirect: "error" });
};

/** An OpenAI client for one prompt's key and base URL ("" = the platform default). */
export function aiClient(apiKey: string, baseUrl: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: baseUrl || undefined, timeout: getConfig().PROVIDER_TIMEOUT_MS, maxRetries: 1, fetch: publicFetch });
}

/** One Chat Completions call. Errors: the package's (`APIError` with `status` and `code`, timeouts, connection). */
export async function complete(client: OpenAI, req: { model: string; messages: ChatTurn[]; temperature: number; maxTokens: number }): Promise<ChatAnswer> {
  const out = await client.chat.completions.create({ model: req.model, messages: req.messages, temperature: req.temperature, max_tokens: req.maxTokens });
  const u = out.usage;
  return {
    text: out.choices[0]?.message?.content?.trim() ?? "",
    usage: { promptTokens: u?.prompt_tokens ?? 0, completionTokens: u?.completion_tokens ?? 0, totalTokens: u?.total_tokens ?? 0 },
  };
}

/** The text of a voice note (`audio`: its bytes, `fileName` with its extension). */
export async function transcribe(client: OpenAI, audio: Buffer, fileName: string, mime: string): Promise<string> {
  const out = await client.audio.transcriptions.create({ model: TRANSCRIPTION_MODEL, file: await toFile(audio, fileName, { type: mime }) });
  return out.text.trim();
}

const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] as string);

/** The speech of `text` in `voice` (a pt-BR neural voice) as OGG/Opus bytes. Throws on a non-2xx answer or timeout. */
export async function synthesize(text: string, voice: string, voiceKey: string, voiceRegion: string): Promise<Buffer> {
  const url = getConfig().SPEECH_TTS_URL.replace("{region}", encodeURIComponent(voiceRegion));
  const ssml = `<speak version='1.0' xml:lang='pt-BR'><voice xml:lang='pt-BR' name='${xml(voice)}'>${xml(text)}</voice></speak>`;
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "Ocp-Apim-Subscription-Key": voiceKey,
      "Content-Type": "application/ssml+xml",
      "X-Microsoft-OutputFormat": "ogg-24khz-16bit-mono-opus",
      "User-Agent": "atende",
    },
    body: ssml,
    signal: AbortSignal.timeout(getConfig().PROVIDER_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`text-to-speech answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}
