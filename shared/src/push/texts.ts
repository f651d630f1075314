/**
 * What a notification says, in the device's language (docs/product/push.md#what-is-pushed): the title and body of
 * each kind, its `tag` (one notification per ticket, chat or announcement: a newer one replaces it) and the path a tap
 * opens.
 */
import type { PushContent, PushLang, PushPayload } from "./schema.ts";

/** The longest body a notification carries (characters; the rest is cut with an ellipsis). */
export const BODY_MAX = 180;

const T = {
  ticket: { pt: "Novo ticket aguardando", en: "New ticket waiting", es: "Nuevo ticket en espera" },
  message: { pt: "Nova mensagem", en: "New message", es: "Nuevo mensaje" },
  chat: { pt: "Chat interno", en: "Internal chat", es: "Chat interno" },
  announcement: { pt: "Informativo", en: "Announcement", es: "Anuncio" },
  media: { pt: "Arquivo", en: "File", es: "Archivo" },
} as const;

const cut = (s: string) => (s.length > BODY_MAX ? `${s.slice(0, BODY_MAX - 1)}…` : s);

/** The notification of `c` in language `lang`. */
export function renderPush(c: PushContent, lang: PushLang): PushPayload {
  const text = c.text.trim() || T.media[lang];
  switch (c.kind) {
    case "ticket":
      // A ticket opened without a message yet (by an agent, a campaign reply) shows the contact alone.
      return { kind: c.kind, title: T.ticket[lang], body: cut(c.text.trim() ? `${c.name}: ${text}` : c.name || text), tag: `ticket-${c.ref}`, url: `/tickets/${c.ref}` };
    case "message":
      return { kind: c.kind, title: c.name || T.message[lang], body: cut(text), tag: `ticket-${c.ref}`, url: `/tickets/${c.ref}` };
    case "chat":
      return { kind: c.kind, title: c.name || T.chat[lang], body: cut(c.sender ? `${c.sender}: ${text}` : text), tag: `chat-${c.ref}`, url: `/chats/${c.ref}` };
    case "announcement":
      return { kind: c.kind, title: `${T.announcement[lang]}: ${c.name}`, body: cut(text), tag: `announcement-${c.ref}`, url: `/?announcement=${c.ref}` };
  }
}
