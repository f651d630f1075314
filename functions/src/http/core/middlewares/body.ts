/**
 * Body parsing: the raw bytes (base64 or utf8 as API Gateway sent them) always; JSON when the operation declares a
 * `body` (empty body → `{}`; malformed → 400 `ERR_INVALID_JSON`); `multipart/form-data` for operations declared
 * `multipart` (files `medias` up to 16 MiB each, at most 10 files, an 11th is 400; captions `body`) through `@middy/http-multipart-body-parser`.
 */
import type middy from "@middy/core";
import httpMultipartBodyParser from "@middy/http-multipart-body-parser";
import { AppError } from "@atende/shared/errors";
import { header, stateOf, type HttpEvent, type HttpResponse, type Upload } from "../types.ts";

/** Largest upload accepted per file (bytes). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Most files accepted in one upload; one more is 400 `ERR_VALIDATION` (never silently dropped). */
export const MAX_FILES = 10;

function rawBodyOf(event: HttpEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? "base64" : "utf8");
}

function parseJson(raw: Buffer): unknown {
  if (!raw.length) return {};
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new AppError("ERR_INVALID_JSON");
  }
}

/** Middleware: raw body always; JSON body when `parse` (the operation has a `body` schema). */
export const jsonBody = (parse: boolean): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  before: async ({ event }) => {
    const s = stateOf(event);
    s.rawBody = rawBodyOf(event);
    if (parse) s.json = parseJson(s.rawBody);
  },
});

const invalid = (message: string) => new AppError("ERR_VALIDATION", { fields: [{ path: "medias", message }] });

type Attachment = { filename: string; mimetype: string; content: Buffer; truncated?: boolean };

async function parseMultipart(event: HttpEvent): Promise<{ files: Upload[]; captions: string[]; fields: Record<string, string> }> {
  const copy = { ...event, headers: { ...(event.headers ?? {}) } } as HttpEvent & { body: unknown };
  try {
    // Busboy drops the files past its limit without a word: read one more than allowed, and refuse it below.
    await httpMultipartBodyParser({ busboy: { limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES + 1 } } }).before!({ event: copy } as never);
  } catch {
    throw invalid("Invalid multipart body");
  }
  const body = (copy.body ?? {}) as Record<string, unknown>;
  const raw = body.medias ?? body.file;
  const list = (Array.isArray(raw) ? [...raw].reverse() : raw ? [raw] : []) as Attachment[];
  if (list.length > MAX_FILES) throw invalid(`At most ${MAX_FILES} files`);
  if (list.some((f) => !f || typeof f !== "object" || !Buffer.isBuffer(f.content))) throw invalid("Invalid file");
  if (list.some((f) => f.truncated)) throw new AppError("ERR_PAYLOAD_TOO_LARGE");
  if (list.some((f) => f.content.length === 0)) throw invalid("Empty file");
  const captions = ([] as unknown[]).concat(body.body ?? []).filter((c): c is string => typeof c === "string");
  return {
    files: list.map((f) => ({ filename: String(f.filename ?? "file").slice(0, 200), mimetype: String(f.mimetype ?? "application/octet-stream"), content: f.content })),
    captions,
    fields: Object.fromEntries(
      Object.entries(body)
        .filter(([k]) => k !== "medias" && k !== "file" && k !== "body")
        .map(([k, v]) => [k, ([] as unknown[]).concat(v).find((x): x is string => typeof x === "string")] as const)
        .filter((e): e is readonly [string, string] => e[1] !== undefined),
    ),
  };
}

/** Middleware: a `multipart/form-data` body becomes `upload` (files + captions); any other body is parsed as JSON. */
export const multipartOrJsonBody = (): middy.MiddlewareObj<HttpEvent, HttpResponse> => ({
  before: async ({ event }) => {
    const s = stateOf(event);
    s.rawBody = rawBodyOf(event);
    if (String(header(event, "content-type") ?? "").startsWith("multipart/form-data")) s.upload = await parseMultipart(event);
    else s.json = parseJson(s.rawBody);
  },
});
