/**
 * The platform's logos (docs/product/logos.md): super users upload a PNG, ICO or SVG per destination (login and sign-up
 * pages, side menu, favicons, apple-touch-icon; see `LOGO_REFS`) from the Settings page's Logo tab; everyone reads
 * them, the public pages without a token, and every open tab hears of a change (`./events.ts`). Files go through the media port (`media/attachments.ts`); an SVG is stored only sanitized (`./sanitize.ts`).
 */
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { checkAttachment, replaceAttachment, type Upload } from "../media/attachments.ts";
import { presignLogoGet } from "../storage/media.ts";
import "./events.ts";
import { listLogoItems, putLogoItem } from "./repository.ts";
import { logoFormatOf, sanitizeSvg } from "./sanitize.ts";
import { LOGO_MEDIA, LOGO_REFS, LOGO_TYPE_MESSAGE, type LogoItem, type LogoRef, type LogoView } from "./schema.ts";

/** How long a logo's link works, in seconds (the pages read the list again on each load). */
export const LOGO_LINK_SECONDS = 3600;

const MIME = { png: "image/png", ico: "image/x-icon", svg: "image/svg+xml" } as const;

const fieldError = (message: string) => new AppError("ERR_VALIDATION", { fields: [{ path: "file", message }] });

async function viewOf(item: LogoItem): Promise<LogoView | null> {
  if (!item.mediaPath || !item.mediaMime) return null;
  return { ref: item.ref, url: await presignLogoGet(item.mediaPath, item.mediaMime, LOGO_LINK_SECONDS), mime: item.mediaMime, updatedAt: item.updatedAt };
}

/** `GET /api/logos` (public): every destination that has a logo, each with a short-lived link to its image. */
export async function listLogos(): Promise<{ logos: LogoView[] }> {
  const views = await Promise.all((await listLogoItems()).map(viewOf));
  return { logos: views.filter((v): v is LogoView => v !== null) };
}

/**
 * `POST /api/settings/media-upload?ref=` (super): stores the first file of the upload as the logo of `ref`, replacing
 * the old one. 400 `ERR_VALIDATION` on `file`: no file ('Escolha um arquivo!'), bytes that are not PNG, ICO or SVG
 * whatever the name or type says ('Use somente arquivos em formato PNG, ICO ou SVG!'), an SVG with nothing drawable
 * left; on `size` past {@link LOGO_MEDIA}'s limit. 403 `ERR_NO_PERMISSION` for anyone but a super user.
 */
export async function uploadLogo(auth: AuthContext, ref: LogoRef, upload: { files: Upload[] } | undefined): Promise<{ mensagem: "Arquivo Anexado"; logo: LogoView }> {
  if (!can(auth, "settings:global")) throw new AppError("ERR_NO_PERMISSION");
  const file = upload?.files[0];
  if (!file) throw fieldError("Escolha um arquivo!");
  const format = logoFormatOf(file.content);
  if (!format) throw fieldError(LOGO_TYPE_MESSAGE);
  checkAttachment(LOGO_MEDIA, { contentType: MIME[format], size: file.content.length });
  let content = file.content;
  if (format === "svg") {
    const clean = sanitizeSvg(new TextDecoder().decode(file.content));
    if (!clean) throw fieldError(LOGO_TYPE_MESSAGE);
    content = new TextEncoder().encode(clean);
  }
  const before = (await listLogoItems()).find((l) => l.ref === ref);
  const stored = { filename: `${ref}.${format}`, mimetype: MIME[format], content };
  const item = await replaceAttachment(LOGO_MEDIA, auth.companyId, LOGO_REFS.indexOf(ref) + 1, { files: [stored] }, before?.mediaPath, async (media) => {
    const next: LogoItem = { ref, companyId: auth.companyId, ...media, updatedAt: new Date().toISOString() };
    await putLogoItem(next);
    return next;
  });
  await dispatch({ type: "logo.updated", companyId: auth.companyId, ref, updatedAt: item.updatedAt });
  return { mensagem: "Arquivo Anexado", logo: (await viewOf(item))! };
}
