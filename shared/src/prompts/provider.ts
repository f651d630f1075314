/**
 * The AI provider's adapters (docs/product/prompts.md#the-assistant):
 *
 * - chat and transcription through the official `openai` package: Chat Completions (`model`, the system text and the
 *   conversation, `temperature`, `max_tokens`) and the audio transcriptions API (`whisper-1`). The prompt's `baseUrl`
 *   points the client at an OpenAI-compatible provider (the platform default is the package's: `OPENAI_BASE_URL`, else
 *   the provider's own); 30 s per call, one retry.
 * - voice replies through the speech service's official SDK (`microsoft-cognitiveservices-speech-sdk`): the prompt's
 *   `voiceKey` and `voiceRegion`, the chosen pt-BR neural voice, Ogg/Opus 24 kHz out (the format WhatsApp plays as a
 *   voice note). The SDK speaks its own WebSocket protocol; on one machine `SPEECH_HOST` points it at the local
 *   stand-in that speaks the same protocol (`infra/local/src/ai-standin.ts`).
 */
import { assertPublicHost, oneMachine } from "../net/public-url.ts";
import OpenAI, { toFile } from "openai";
import type { SpeechConfig } from "microsoft-cognitiveservices-speech-sdk";
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

/** The speech service's refusal or failure, with the HTTP status of a refused connection when the SDK tells it. */
export class SpeechError extends Error {
  override name = "SpeechError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The language of every voice reply (the voices offered are Brazilian Portuguese). */
const SPEECH_LANGUAGE = "pt-BR";

type SpeechSdk = typeof import("microsoft-cognitiveservices-speech-sdk");
let speechSdk: Promise<SpeechSdk> | undefined;
/**
 * The speech SDK, loaded at the first voice reply of the process: every function bundles the assistant, and
 * evaluating the SDK at start would lengthen every cold start for the few runs that speak.
 */
const loadSpeechSdk = (): Promise<SpeechSdk> =>
  (speechSdk ??= (async () => {
    // The SDK prefers the runtime's own WebSocket when there is one (Node 22 and later, the Lambda runtime), and with
    // it a refused connection (a wrong key's 401) never ends the request: it would only time out. Its `ws` client
    // reports the refusal at once, with the status.
    const { WebsocketMessageAdapter } = await import("microsoft-cognitiveservices-speech-sdk/distrib/lib/src/common.browser/WebsocketMessageAdapter.js");
    WebsocketMessageAdapter.forceNpmWebSocket = true;
    return import("microsoft-cognitiveservices-speech-sdk");
  })());

/**
 * The SDK's configuration for one prompt: in the cloud the provider's host of `voiceRegion`; on one machine, when
 * `SPEECH_HOST` is set, that host (the local stand-in). The key goes with the connection either way.
 */
function speechConfig({ SpeechConfig }: SpeechSdk, voiceKey: string, voiceRegion: string): SpeechConfig {
  const host = getConfig().SPEECH_HOST;
  if (host && oneMachine()) return SpeechConfig.fromHost(new URL(host), voiceKey);
  if (!/^[a-z0-9-]+$/i.test(voiceRegion)) throw new SpeechError("invalid speech region");
  return SpeechConfig.fromSubscription(voiceKey, voiceRegion);
}

/**
 * The speech of `text` in `voice` (a pt-BR neural voice name, e.g. `pt-BR-FranciscaNeural`) as Ogg/Opus bytes, through
 * the speech SDK with the prompt's `voiceKey` and `voiceRegion`. The SDK builds the SSML (the text XML-escaped).
 * Errors: `SpeechError` (a refused connection carries its HTTP `status` when the SDK reports it, e.g. 401 for a wrong
 * key), an `Error` named `TimeoutError` past `PROVIDER_TIMEOUT_MS`.
 */
export async function synthesize(text: string, voice: string, voiceKey: string, voiceRegion: string): Promise<Buffer> {
  const sdk = await loadSpeechSdk();
  const { ResultReason, SpeechSynthesisOutputFormat, SpeechSynthesizer } = sdk;
  const config = speechConfig(sdk, voiceKey, voiceRegion);
  config.speechSynthesisLanguage = SPEECH_LANGUAGE;
  config.speechSynthesisVoiceName = voice;
  config.speechSynthesisOutputFormat = SpeechSynthesisOutputFormat.Ogg24Khz16BitMonoOpus;
  // null: the audio stays in memory (no speaker, no file).
  const synthesizer = new SpeechSynthesizer(config, null);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error("the speech service did not answer in time"), { name: "TimeoutError" })),
        getConfig().PROVIDER_TIMEOUT_MS,
      );
      synthesizer.speakTextAsync(
        text,
        (result) => {
          if (result.reason === ResultReason.SynthesizingAudioCompleted && result.audioData.byteLength) return resolve(Buffer.from(result.audioData));
          const details = result.errorDetails || `no audio (${ResultReason[result.reason]})`;
          const status = /Unexpected server response: (\d{3})\b/.exec(details)?.[1];
          reject(new SpeechError(`speech synthesis failed: ${details}`, status ? Number(status) : undefined));
        },
        (err) => reject(new SpeechError(`speech synthesis failed: ${err}`)),
      );
    });
  } finally {
    clearTimeout(timer);
    // Not awaited: a service that never answered may never complete the close either.
    synthesizer.close(undefined, () => undefined);
  }
}
