/**
 * Renders a message text as WhatsApp shows it: bold, italic, strikethrough and monospace (`whatsappText.ts`), with web
 * links opening in a new tab. `links={false}` renders links as text (inside clickable rows). No HTML is injected.
 */
import type { ReactNode } from "react";
import { parseWhatsappText, type Segment } from "./whatsappText.ts";

function render(segs: Segment[], links: boolean): ReactNode[] {
  return segs.map((s, i) => {
    switch (s.kind) {
      case "text":
        return s.text;
      case "link":
        return links ? (
          <a key={i} href={s.href} target="_blank" rel="noopener noreferrer">
            {s.text}
          </a>
        ) : (
          s.text
        );
      case "mono":
        return <code key={i}>{s.text}</code>;
      case "bold":
        return <strong key={i}>{render(s.children, links)}</strong>;
      case "italic":
        return <em key={i}>{render(s.children, links)}</em>;
      case "strike":
        return <s key={i}>{render(s.children, links)}</s>;
      default:
        return null;
    }
  });
}

export function WhatsappText({ text, links = true }: { text: string; links?: boolean }) {
  return <>{render(parseWhatsappText(text), links)}</>;
}
