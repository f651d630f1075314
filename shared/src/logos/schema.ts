/**
 * The platform's logos (docs/product/logos.md): one file per destination — the login and sign-up pages, the side menu
 * and the favicon, each for the light and the dark theme, plus the 256×256 favicon and the apple-touch-icon — uploaded
 * by super users from the Settings page's Logo tab and shown to everyone, the public pages included (no token). Pure
 * zod, so the web reads the same names.
 */
import { z } from "zod";
import { defineAttachmentKind } from "../media/kinds.ts";
import { attachedMedia } from "../media/schema.ts";

/**
 * Where a logo shows: the login page, the side menu ("interno"), the favicon and the sign-up page, light and dark; the
 * 256×256 favicon and the apple-touch-icon (home-screen icon) of the document's head, one each. New destinations go at
 * the end: a logo's file folder is its destination's position here.
 */
export const LOGO_REFS = [
  "login",
  "login-dark",
  "interno",
  "interno-dark",
  "favicon",
  "favicon-dark",
  "signup",
  "signup-dark",
  "favicon-256x256",
  "apple-touch-icon",
] as const;
export const LogoRef = z.enum(LOGO_REFS);
export type LogoRef = z.infer<typeof LogoRef>;

/** The only formats accepted, as their MIME types (the file's bytes must say the same). */
export const LOGO_TYPES = ["image/png", "image/x-icon", "image/vnd.microsoft.icon", "image/svg+xml"] as const;
/** The largest logo, in bytes. */
export const LOGO_MAX_BYTES = 1024 * 1024;
/** The refusal of any other format (the upload form's own text). */
export const LOGO_TYPE_MESSAGE = "Use somente arquivos em formato PNG, ICO ou SVG!";

/** The logos' files: `media/<super's company>/logos/<destination index>/<uuid>.<ext>`. */
export const LOGO_MEDIA = defineAttachmentKind({ folder: "logos", types: LOGO_TYPES, typeMessage: LOGO_TYPE_MESSAGE, maxBytes: LOGO_MAX_BYTES });

/** A stored logo (`SETTINGS` / `LOGO#<ref>`): its file, the super user's company that holds it, when it changed. */
export const LogoItem = z.object({ ref: LogoRef, companyId: z.number().int(), ...attachedMedia, updatedAt: z.string() });
export type LogoItem = z.infer<typeof LogoItem>;

/** A logo as the API shows it: a link to its image (a short-lived one), its type and when it changed. */
export const LogoView = z.object({ ref: LogoRef, url: z.string(), mime: z.string(), updatedAt: z.string() });
export type LogoView = z.infer<typeof LogoView>;

/** `GET /api/logos`: every destination that has a logo. */
export const LogosResponse = z.object({ logos: z.array(LogoView) });

/** `POST /api/settings/media-upload?ref=` query. */
export const LogoUploadQuery = z.object({ ref: LogoRef });
/** `POST /api/settings/media-upload` answer: the form's success word and the new logo. */
export const LogoUploaded = z.object({ mensagem: z.literal("Arquivo Anexado"), logo: LogoView });

/** `company-{id}-logo` frames' data (platform frames, to every connected user): the destination whose logo changed. */
export const LogoFrame = z.object({ ref: LogoRef, updatedAt: z.string() });
export type LogoFrame = z.infer<typeof LogoFrame>;
