/**
 * What a message is, in words and a line icon (the conversation's own icons), wherever a message is named without its
 * content: ticket-list previews, the quoted block of a reply and the composer's "Respondendo a". The backend's previews
 * start with an emoji (`📷`, `🎤`, `📍 <place>`, `👤 <name>`...; `shared/src/ingest/content.ts`): they are read here
 * and shown as icon + word ("Foto", "Localização · Rua Augusta") in the user's language.
 */
import { BarChart3, FileText, ImageIcon, MapPin, Mic, Sticker, UserRound, Video, type LucideIcon } from "lucide-react";
import { fold, queryTokens } from "@atende/shared/search/tokens";
import { useTranslation } from "react-i18next";
import { WhatsappText } from "./WhatsappText.tsx";

/** The kinds a message can be named by (keys of `tickets.messages.kind.*`). */
export type MediaKind = "image" | "video" | "audio" | "document" | "sticker" | "location" | "contact" | "poll";

const ICONS: Record<MediaKind, LucideIcon> = {
  image: ImageIcon,
  video: Video,
  audio: Mic,
  document: FileText,
  sticker: Sticker,
  location: MapPin,
  contact: UserRound,
  poll: BarChart3,
};

/** Preview prefixes the backend writes, by kind (with and without the emoji variation selector). */
const PREFIXES: [string, MediaKind][] = [
  ["📷", "image"],
  ["🎥", "video"],
  ["🎤", "audio"],
  ["📄", "document"],
  ["🏷️", "sticker"],
  ["🏷", "sticker"],
  ["📍", "location"],
  ["👤", "contact"],
  ["📊", "poll"],
];

/** A message's `mediaType` as a kind (null for text, calls and reactions). */
export function kindOfMediaType(mediaType: string | null | undefined): MediaKind | null {
  switch (mediaType) {
    case "image":
    case "video":
    case "audio":
    case "sticker":
      return mediaType;
    case "application":
    case "document":
      return "document";
    case "locationMessage":
    case "location":
      return "location";
    case "contactMessage":
    case "vcard":
      return "contact";
    default:
      return null;
  }
}

/** Splits a backend preview into its kind and the rest (`"📍 Rua X"` → location, "Rua X"); null kind for plain text. */
export function parsePreview(text: string): { kind: MediaKind | null; rest: string } {
  for (const [prefix, kind] of PREFIXES) {
    if (text.startsWith(prefix)) return { kind, rest: text.slice(prefix.length).replace(/^\uFE0F/, "").trim() };
  }
  return { kind: null, rest: text };
}

/** Icon + translated word + optional detail ("Localização · Rua X"). */
export function KindLabel({ kind, detail }: { kind: MediaKind; detail?: string }) {
  const { t } = useTranslation();
  const Icon = ICONS[kind];
  return (
    <span className="kind-label" data-kind={kind}>
      <Icon size={14} aria-hidden="true" className="kind-icon" />
      <span>{t(`tickets.messages.kind.${kind}`)}</span>
      {detail ? (
        <>
          {" · "}
          <WhatsappText text={detail} links={false} />
        </>
      ) : null}
    </span>
  );
}

/** A ticket's `lastMessage` as the list shows it: plain text as WhatsApp text, media previews as icon + word. */
export function PreviewText({ text }: { text: string }) {
  const { kind, rest } = parsePreview(text);
  if (!kind) return <WhatsappText text={text} links={false} />;
  return <KindLabel kind={kind} detail={rest} />;
}

/**
 * A message named in a reply (quoted block, "Respondendo a"): its text when it has one (a caption, a document's name),
 * else what it is (icon + word); a contact card or a location is always named by its kind.
 */
export function QuotedText({ body, mediaType }: { body: string | null | undefined; mediaType: string | null | undefined }) {
  const kind = kindOfMediaType(mediaType);
  const text = body ?? "";
  const parsed = parsePreview(text);
  if (parsed.kind) return <KindLabel kind={parsed.kind} detail={parsed.rest} />;
  if (!kind) return <WhatsappText text={text} links={false} />;
  if (kind === "contact" || kind === "location" || !text.trim()) return <KindLabel kind={kind} />;
  return <KindLabel kind={kind} detail={text} />;
}

/**
 * A search result's matching message (`searchSnippet`) with the searched words marked (`<mark>`): whole words, accents
 * and case ignored, as the search matches them.
 */
export function MarkedSnippet({ text, term }: { text: string; term: string }) {
  const wanted = new Set(queryTokens(term).map((tok) => tok.text));
  const parts = text.split(/([\p{L}\p{N}\p{M}]+)/u);
  return (
    <span className="search-snippet" data-testid="search-snippet">
      {parts.map((p, i) => (wanted.has(fold(p)) ? <mark key={i}>{p}</mark> : p))}
    </span>
  );
}
