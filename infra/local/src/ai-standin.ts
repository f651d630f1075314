/**
 * A local stand-in for the AI provider (one machine and tests only; never deployed): a loopback HTTP server speaking
 * the wire protocols the assistant uses (docs/product/prompts.md#the-assistant):
 *
 * - `POST /v1/chat/completions` (Chat Completions): answers `{choices: [{message: {role, content}}], usage}`;
 * - `POST /v1/audio/transcriptions` (multipart, field `file` and `model`): answers `{text}`;
 * - `POST /cognitiveservices/v1` (the speech service's text-to-speech REST endpoint, SSML in): answers OGG bytes.
 *
 * Every request is kept (`requests`) so tests assert what was sent. The default reply: when the customer's last turn
 * asks for a person ("atendente", "humano", "pessoa"), the transfer phrase; otherwise a greeting that repeats what the
 * customer said. Tests replace `reply` or set `failWith` (a status and an OpenAI-style error body).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startLazy } from "./lazy.ts";

export interface StandinRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** JSON bodies parsed; multipart and SSML bodies as text. */
  // biome-ignore lint/suspicious/noExplicitAny: whatever the client sent, for tests to assert on
  body: any;
}

export interface AiStandin {
  /** `http://127.0.0.1:<port>/v1`: a prompt's base URL. */
  baseUrl: string;
  /** `http://127.0.0.1:<port>/cognitiveservices/v1`: the `SPEECH_TTS_URL` to point voice replies at. */
  ttsUrl: string;
  requests: StandinRequest[];
  /** The model's reply to a Chat Completions request (default: see the module docstring). */
  reply: (req: { messages: { role: string; content: string }[] }) => string;
  /** When set, every request answers this status and body. */
  failWith: { status: number; body: unknown } | null;
  /** Waits this long before answering (timeouts). */
  delayMs: number;
  /** The transcription's text. */
  transcript: string;
  stop(): Promise<void>;
}

/** The phrase the model starts its reply with to hand the customer to people. */
const TRANSFER = "Ação: Transferir para o setor de atendimento";

export const defaultReply = (req: { messages: { role: string; content: string }[] }): string => {
  const last = [...req.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  if (/atendente|humano|pessoa/i.test(last)) return `${TRANSFER}. Um momento, vou chamar alguém da equipe.`;
  return `Olá! Sou o assistente virtual. Você disse: ${last}`;
};

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A prompt's base URL and the text-to-speech URL of a stand-in at `origin` (`http://host:port`). */
const standinUrls = (origin: string) => ({ baseUrl: `${origin}/v1`, ttsUrl: `${origin}/cognitiveservices/v1` });

/** Starts the stand-in on 127.0.0.1 (`port` 0 = any free port). */
export async function startAiStandin(port = 0): Promise<AiStandin> {
  // The handler reads the stand-in's current settings (tests change them between requests).
  const state: AiStandin = {
    baseUrl: "",
    ttsUrl: "",
    requests: [],
    reply: defaultReply,
    failWith: null,
    delayMs: 0,
    transcript: "quero saber o horário de vocês",
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer(async (req, res) => {
    const raw = await bodyOf(req);
    const path = (req.url ?? "").split("?")[0];
    const json = (req.headers["content-type"] ?? "").includes("application/json");
    // biome-ignore lint/suspicious/noExplicitAny: whatever the client sent (JSON or text)
    let body: any = raw.toString("utf8");
    if (json) {
      try {
        body = JSON.parse(body);
      } catch {
        body = null;
      }
    }
    state.requests.push({ path, headers: req.headers, body });
    if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
    if (res.destroyed) return;
    const send = (status: number, payload: unknown, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(typeof payload === "string" || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload));
    };
    if (state.failWith) return send(state.failWith.status, state.failWith.body);
    if (req.method === "POST" && path === "/v1/chat/completions") {
      const content = state.reply({ messages: body?.messages ?? [] });
      return send(200, {
        id: `chatcmpl-${state.requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body?.model ?? "stand-in",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 42, completion_tokens: 8, total_tokens: 50 },
      });
    }
    if (req.method === "POST" && path === "/v1/audio/transcriptions") return send(200, { text: state.transcript });
    if (req.method === "POST" && path === "/cognitiveservices/v1") return send(200, Buffer.from("OggS\0stand-in voice"), "audio/ogg");
    send(404, { error: { message: "not found", type: "invalid_request_error" } });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  Object.assign(state, standinUrls(`http://127.0.0.1:${bound}`));
  return state;
}

/**
 * The stand-in as the one-machine stack runs it: its URLs are fixed now, the server starts on the first request
 * (`./lazy.ts`), with the default settings (nobody holds its state to change them).
 */
export async function startLazyAiStandin(): Promise<{ baseUrl: string; ttsUrl: string; stop(): Promise<void> }> {
  const front = await startLazy(async () => {
    const ai = await startAiStandin();
    return { endpoint: new URL(ai.baseUrl).origin, stop: ai.stop };
  });
  return { ...standinUrls(front.endpoint), stop: front.stop };
}
