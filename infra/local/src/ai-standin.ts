/**
 * A local stand-in for the AI provider (one machine and tests only; never deployed): a loopback HTTP server speaking
 * the wire protocols the assistant uses (docs/product/prompts.md#the-assistant):
 *
 * - `POST /v1/chat/completions` (Chat Completions): answers `{choices: [{message: {role, content}}], usage}`;
 * - `POST /v1/audio/transcriptions` (multipart, field `file` and `model`): answers `{text}`;
 * - the speech service's text-to-speech WebSocket (`/tts/cognitiveservices/websocket/v1`, also without the `/tts`
 *   prefix), the protocol the official speech SDK speaks ({@link SpeechSession}): the key in the upgrade's
 *   `Ocp-Apim-Subscription-Key` header or query parameter (a key it does not know: 401 on the upgrade); the client's
 *   text messages `speech.config` (once per connection), then per request `synthesis.context` and `ssml`, each with
 *   `Path:` / `X-RequestId:` headers before a blank line; for each `ssml` the service's `turn.start`, `response`
 *   (naming the audio stream), binary `audio` messages (a 2-byte big-endian header length, the headers, the bytes:
 *   a real Ogg/Opus voice, `assets/voz-assistente.ogg`), `audio.metadata` (the session's end) and `turn.end`.
 *
 * Every request is kept (`requests`, and `speech` for the WebSocket) so tests assert what was sent. The default reply:
 * when the customer's last turn asks for a person ("atendente", "humano", "pessoa"), the transfer phrase; otherwise a
 * greeting that repeats what the customer said. Tests replace `reply` or set `failWith` (a status and an OpenAI-style
 * error body), `speechKeys` (the keys the speech service knows) or `speechSilent`.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

export interface StandinRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** JSON bodies parsed; multipart and SSML bodies as text. */
  // biome-ignore lint/suspicious/noExplicitAny: whatever the client sent, for tests to assert on
  body: any;
}

/** One message of the speech protocol: its headers (names lower-cased) and its text body. */
export interface SpeechMessage {
  path: string;
  requestId: string;
  headers: Record<string, string>;
  body: string;
}

/** One WebSocket connection of the speech SDK: the upgrade's path, the key it carried, the messages it sent. */
export interface SpeechSession {
  path: string;
  /** The subscription key, from the `Ocp-Apim-Subscription-Key` header or query parameter ("" = none). */
  key: string;
  /** The `X-ConnectionId` the SDK gave the connection. */
  connectionId: string;
  messages: SpeechMessage[];
}

export interface AiStandin {
  /** `http://127.0.0.1:<port>/v1`: a prompt's base URL. */
  baseUrl: string;
  /** `ws://127.0.0.1:<port>`: the `SPEECH_HOST` that points the speech SDK here. */
  speechHost: string;
  requests: StandinRequest[];
  /** The speech SDK's connections, oldest first. */
  speech: SpeechSession[];
  /** The subscription keys the speech service accepts (null = any non-empty key). */
  speechKeys: string[] | null;
  /** The speech service takes the connection and its messages and never answers (timeouts). */
  speechSilent: boolean;
  /** The voice's bytes (default: a short Ogg/Opus voice note). */
  voiceAudio: Buffer;
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

/** A short Brazilian-Portuguese voice note, Ogg/Opus 24 kHz mono: what the speech stand-in speaks. */
export const STANDIN_VOICE = readFileSync(new URL("./assets/voz-assistente.ogg", import.meta.url));

/** The paths of the text-to-speech WebSocket (the SDK's current one and the service's older one). */
const SPEECH_PATHS = new Set(["/tts/cognitiveservices/websocket/v1", "/cognitiveservices/websocket/v1"]);
const CRLF = "\r\n";

/** A text message of the speech protocol: `Name: value` headers, a blank line, the body. */
function parseSpeechText(raw: string): SpeechMessage {
  const cut = raw.indexOf(CRLF + CRLF);
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const headers: Record<string, string> = {};
  for (const line of head.split(CRLF)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { path: headers.path ?? "", requestId: headers["x-requestid"] ?? "", headers, body: cut < 0 ? "" : raw.slice(cut + 4) };
}

const speechHeaders = (h: Record<string, string>) =>
  Object.entries({ ...h, "X-Timestamp": new Date().toISOString() })
    .map(([k, v]) => `${k}: ${v}${CRLF}`)
    .join("");

/** The service's text message `path` for request `requestId`. */
const speechText = (path: string, requestId: string, body: unknown) =>
  `${speechHeaders({ Path: path, "X-RequestId": requestId, "Content-Type": "application/json; charset=utf-8" })}${CRLF}${JSON.stringify(body)}`;

/** The service's binary `audio` message: a 2-byte big-endian header length, the headers (ASCII), the audio bytes. */
function speechAudio(requestId: string, streamId: string, chunk: Buffer): Buffer {
  const head = Buffer.from(speechHeaders({ Path: "audio", "X-RequestId": requestId, "X-StreamId": streamId, "Content-Type": "audio/ogg; codecs=opus" }), "ascii");
  const size = Buffer.alloc(2);
  size.writeUInt16BE(head.length);
  return Buffer.concat([size, head, chunk]);
}

/**
 * Answers one `ssml` message as the service does: `turn.start`, `response` with the audio stream's id, the audio in
 * chunks, `audio.metadata` with the session's end (offset in 100 ns ticks), `turn.end`.
 */
function speak(ws: WebSocket, requestId: string, audio: Buffer): void {
  const serviceTag = randomUUID().replace(/-/g, "");
  const streamId = randomUUID().replace(/-/g, "").toUpperCase();
  ws.send(speechText("turn.start", requestId, { context: { serviceTag } }));
  ws.send(speechText("response", requestId, { context: { serviceTag }, audio: { type: "inline", streamId } }));
  for (let at = 0; at < audio.length; at += 4096) ws.send(speechAudio(requestId, streamId, audio.subarray(at, at + 4096)));
  ws.send(speechText("audio.metadata", requestId, { Metadata: [{ Type: "SessionEnd", Data: { Offset: 20_000_000 } }] }));
  ws.send(speechText("turn.end", requestId, { context: { serviceTag } }));
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the stand-in on 127.0.0.1 (`port` 0 = any free port). */
export async function startAiStandin(port = 0): Promise<AiStandin> {
  // The handler reads the stand-in's current settings (tests change them between requests).
  const state: AiStandin = {
    baseUrl: "",
    speechHost: "",
    requests: [],
    speech: [],
    speechKeys: null,
    speechSilent: false,
    voiceAudio: STANDIN_VOICE,
    reply: defaultReply,
    failWith: null,
    delayMs: 0,
    transcript: "quero saber o horário de vocês",
    stop: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
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
    send(404, { error: { message: "not found", type: "invalid_request_error" } });
  });
  // The speech SDK's WebSocket: the key checked on the upgrade, then the protocol of the module docstring.
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? "/", "ws://127.0.0.1");
    const refuse = (status: number, text: string, body: unknown) => {
      const json = JSON.stringify(body);
      socket.end(`HTTP/1.1 ${status} ${text}${CRLF}Content-Type: application/json${CRLF}Content-Length: ${Buffer.byteLength(json)}${CRLF}Connection: close${CRLF}${CRLF}${json}`);
    };
    if (!SPEECH_PATHS.has(url.pathname)) return refuse(404, "Not Found", { error: { code: "404", message: "Resource not found" } });
    const header = req.headers["ocp-apim-subscription-key"];
    const key = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get("Ocp-Apim-Subscription-Key") ?? "";
    const session: SpeechSession = { path: url.pathname, key, connectionId: String(req.headers["x-connectionid"] ?? url.searchParams.get("X-ConnectionId") ?? ""), messages: [] };
    state.speech.push(session);
    if (!key || (state.speechKeys && !state.speechKeys.includes(key))) {
      return refuse(401, "Unauthorized", { error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint." } });
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const contexts = new Set<string>();
      ws.on("message", (data, isBinary) => {
        if (isBinary) return ws.close(1007, "unexpected binary message");
        const m = parseSpeechText(data.toString());
        session.messages.push(m);
        if (state.speechSilent) return;
        if (session.messages[0].path !== "speech.config") return ws.close(1007, "speech.config must come first");
        if (m.path === "synthesis.context") contexts.add(m.requestId);
        if (m.path !== "ssml") return;
        if (!m.requestId || !contexts.has(m.requestId)) return ws.close(1007, "ssml without its synthesis.context");
        speak(ws, m.requestId, state.voiceAudio);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${bound}/v1`;
  state.speechHost = `ws://127.0.0.1:${bound}`;
  return state;
}
