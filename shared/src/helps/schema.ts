/**
 * Help videos (docs/product/helps.md): short videos the platform's super users publish for every company; each is a
 * title, a description and the code of a YouTube video. Three blocks:
 *
 * 1. the stored item (what DynamoDB holds),
 * 2. request schemas (bodies, queries, path params) — the edge parses every input with these,
 * 3. response shapes (what the API answers).
 */
import { z } from "zod";
import { zId, zPageNumber } from "../common.ts";

/** Helps per page of `GET /api/helps`. */
export const HELPS_PAGE_SIZE = 20;
/** Longest title, in characters. */
export const HELP_TITLE_MAX = 100;
/** Longest description, in characters. */
export const HELP_DESCRIPTION_MAX = 1000;
/** A YouTube video code: letters, digits, `-` and `_` (11 characters today; a little room either way). */
const VIDEO_CODE = /^[A-Za-z0-9_-]{6,32}$/;
/** The validation text of a video field that holds neither a code nor a YouTube address. */
export const INVALID_VIDEO = "Código de vídeo inválido";

/**
 * The video code of what an admin pasted: the code itself, or a YouTube address (`youtube.com/watch?v=<code>`,
 * `youtu.be/<code>`, `youtube.com/embed/<code>`, `youtube.com/shorts/<code>`); `undefined` when it is neither.
 */
export function videoCodeOf(input: string): string | undefined {
  const text = input.trim();
  if (VIDEO_CODE.test(text)) return text;
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^(www|m)\./, "");
  const parts = url.pathname.split("/").filter(Boolean);
  let code: string | null | undefined;
  if (host === "youtu.be") code = parts[0];
  else if (host === "youtube.com" || host === "youtube-nocookie.com") code = parts[0] === "watch" ? url.searchParams.get("v") : ["embed", "shorts", "live", "v"].includes(parts[0] ?? "") ? parts[1] : undefined;
  return code && VIDEO_CODE.test(code) ? code : undefined;
}

// ---------------------------------------------------------------------------------------------
// 1. Stored item

/** Help item `HELPS` / `HELP#<id>` (`keys.help`): global, not in any company's partition. `video` is the code. */
export const HelpItem = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().default(""),
  video: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HelpItem = z.infer<typeof HelpItem>;

// ---------------------------------------------------------------------------------------------
// 2. Requests

/** A required text ("Obrigatório" when absent or blank), trimmed, at most `max` characters ("Too Long!"). */
const required = (max: number) =>
  z
    .string({ error: (iss) => (iss.input == null ? "Obrigatório" : "Invalid input") })
    .trim()
    .superRefine((v, ctx) => {
      if (!v) ctx.addIssue({ code: "custom", message: "Obrigatório" });
      else if (v.length > max) ctx.addIssue({ code: "custom", message: "Too Long!" });
    });

/** The video: required, a code or a YouTube address ({@link INVALID_VIDEO} otherwise), stored as the code. */
const video = required(500).transform((v, ctx) => {
  const code = videoCodeOf(v);
  if (code) return code;
  if (v) ctx.addIssue({ code: "custom", message: INVALID_VIDEO });
  return z.NEVER;
});

const description = z.string().trim().max(HELP_DESCRIPTION_MAX, "Too Long!");

/** `POST /api/helps`: title (required), description (default ""), video (required: a code or a YouTube address). */
export const CreateHelpBody = z.object({ title: required(HELP_TITLE_MAX), description: description.optional(), video });
export type CreateHelpBody = z.infer<typeof CreateHelpBody>;

/** `PUT /api/helps/{id}`: every field optional; absent = unchanged; the same rules as a create. */
export const UpdateHelpBody = z.object({ title: required(HELP_TITLE_MAX).optional(), description: description.optional(), video: video.optional() });
export type UpdateHelpBody = z.infer<typeof UpdateHelpBody>;

/** `GET /api/helps`: `searchParam` (title contains, accent- and case-insensitive), `pageNumber` (1, 2, ...). */
export const PageHelpsQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber: zPageNumber });
export type PageHelpsQuery = z.infer<typeof PageHelpsQuery>;

export const HelpIdParams = z.object({ id: zId });

// ---------------------------------------------------------------------------------------------
// 3. Responses

/** A help as every route answers it. */
export const Help = HelpItem;
export type Help = HelpItem;

/** `GET /api/helps/list`: every help, by title. */
export const HelpList = z.array(Help);

/** `GET /api/helps`: one page by title; `count` = the helps matching the search. */
export const HelpsPage = z.object({ records: z.array(Help), count: z.number().int(), hasMore: z.boolean() });
export type HelpsPage = z.infer<typeof HelpsPage>;

/** `DELETE /api/helps/{id}`. */
export const HelpDeleted = z.object({ message: z.string() });
