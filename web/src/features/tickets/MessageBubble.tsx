/**
 * One message of the conversation (docs/product/messages.md): side by `fromMe`, time and ticks
 * (ack 0 clock, 1-2 one tick, 3 two ticks, 4-5 blue), media by type (image with enlarge, sticker, video, audio with a
 * persisted playback rate 0.5/1/1.5/2, document with name and size, location as a map link, vCard with a
 * start-conversation action), quoted reply (click scrolls to the original), reactions, edited/deleted/forwarded marks,
 * the automatic-message mark (bot menus, greetings, notices: `isAutomatic`),
 * failed sends with retry, and the options menu (reply, react, edit, delete, forward).
 */
import * as Menu from "@radix-ui/react-dropdown-menu";
import { Ban, Bot, Check, CheckCheck, ChevronDown, Clock, FileText, Forward, MapPin, Phone, Plus, TriangleAlert, UserRound } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { messageActions } from "./api.ts";
import { ackState, fileSize, parseLocation, parseVcard, timeOf } from "./format.ts";
import { QuotedText } from "./MediaLabel.tsx";
import { WhatsappText } from "./WhatsappText.tsx";
import { withoutAutomaticMark } from "./whatsappText.ts";
import type { Message } from "./types.ts";

/** Quick reactions of the reaction picker (6 quick emojis plus the full list). */
export const QUICK_REACTIONS = ["👍", "❤️", "😂", "😮", "😢", "🙏"];
const RATES = [0.5, 1, 1.5, 2];
const RATE_KEY = "audioPlaybackRate";

/** The saved audio playback rate (localStorage `audioPlaybackRate`, default 1). */
export function savedRate(): number {
  const v = Number(localStorage.getItem(RATE_KEY));
  return RATES.includes(v) ? v : 1;
}

function Ticks({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const s = ackState(ack);
  if (s === "failed") return null;
  const label = t(`tickets.messages.ack.${s}`);
  const Glyph = s === "pending" ? Clock : s === "sent" ? Check : CheckCheck;
  return (
    <span className={`ticks ticks-${s}`} title={label} aria-label={label} role="img" data-testid="ticks" data-ack={ack}>
      <Glyph size={15} aria-hidden="true" />
    </span>
  );
}

/** Media URL with a fallback: when the presigned URL expired, a fresh one comes from `GET /api/media/{id}`. */
function useMediaUrl(m: Message): [string | null, () => void] {
  const [url, setUrl] = useState(m.mediaUrl);
  const retried = useRef(false);
  useEffect(() => {
    setUrl(m.mediaUrl);
    retried.current = false;
  }, [m.mediaUrl]);
  const onError = () => {
    if (retried.current) return;
    retried.current = true;
    messageActions
      .mediaUrl(m.id)
      .then((r) => setUrl(r.url))
      .catch(() => undefined);
  };
  return [url, onError];
}

function AudioPlayer({ src, onError }: { src: string; onError: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLAudioElement>(null);
  const [rate, setRate] = useState(savedRate);
  useEffect(() => {
    if (ref.current) ref.current.playbackRate = rate;
  }, [rate, src]);
  const next = () => {
    const r = RATES[(RATES.indexOf(rate) + 1) % RATES.length];
    localStorage.setItem(RATE_KEY, String(r));
    setRate(r);
  };
  return (
    <div className="audio-player">
      <audio ref={ref} controls preload="metadata" src={src} onError={onError} onLoadedMetadata={() => {
          if (ref.current) ref.current.playbackRate = rate;
        }} />
      <button type="button" className="chip-button" onClick={next} aria-label={t("tickets.messages.playbackRate", { rate })}>
        {rate}x
      </button>
    </div>
  );
}

function MediaContent({ m, onStartConversation, onEnlarge }: { m: Message; onStartConversation?: (name: string, number: string) => void; onEnlarge: (url: string) => void }) {
  const { t } = useTranslation();
  const [url, onError] = useMediaUrl(m);
  switch (m.mediaType) {
    case "image":
      return url ? (
        <button type="button" className="media-thumb" onClick={() => onEnlarge(url)} aria-label={t("tickets.messages.openImage")}>
          <img src={url} alt={m.mediaName ?? ""} loading="lazy" onError={onError} />
        </button>
      ) : null;
    case "sticker":
      return url ? <img className="sticker" src={url} alt="sticker" loading="lazy" onError={onError} /> : null;
    case "video":
      return url ? <video className="media-video" controls preload="metadata" src={url} onError={onError} /> : null;
    case "audio":
      return url ? <AudioPlayer src={url} onError={onError} /> : null;
    case "application":
      return (
        <a className="document" href={url ?? undefined} target="_blank" rel="noreferrer" download={m.mediaName ?? undefined}>
          <FileText className="line-icon" size={22} aria-hidden="true" />
          <span className="document-name">{m.mediaName ?? m.body}</span>
          <span className="document-size">{fileSize(m.mediaSize)}</span>
        </a>
      );
    case "locationMessage": {
      const loc = parseLocation(m.body);
      return (
        <a className="location" href={loc.link || undefined} target="_blank" rel="noreferrer">
          {loc.image && /^(https?:|data:image)/.test(loc.image) ? <img src={loc.image} alt="" /> : <MapPin className="line-icon" size={22} aria-hidden="true" />}
          <span>{loc.description || t("tickets.messages.location")}</span>
        </a>
      );
    }
    case "contactMessage":
    case "vcard": {
      const cards = m.body.split(/(?=BEGIN:VCARD)/).filter((s) => s.trim());
      return (
        <div className="vcards">
          {cards.map((c, i) => {
            const v = parseVcard(c);
            return (
              <div key={i} className="vcard">
                <UserRound className="line-icon" size={22} aria-hidden="true" />
                <div>
                  <strong>{v.name || t("tickets.messages.vcard")}</strong>
                  <div className="sub-line">{v.number}</div>
                </div>
                {v.number && onStartConversation && (
                  <button type="button" className="chip-button" onClick={() => onStartConversation(v.name || v.number, v.number)}>
                    {t("tickets.messages.startConversation")}
                  </button>
                )}
              </div>
            );
          })}
        </div>
      );
    }
    default:
      return null;
  }
}

export interface BubbleProps {
  m: Message;
  selecting: boolean;
  selected: boolean;
  onToggleSelect: () => void;
  onReply: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onForward: () => void;
  onReact: (emoji: string) => void;
  onMoreReactions: () => void;
  onRetry: () => void;
  onQuoteClick: (id: string) => void;
  onEnlarge: (url: string) => void;
  onStartConversation?: (name: string, number: string) => void;
  canAct: boolean;
}

/**
 * The message's options menu (reply, react, edit, delete, forward) on Radix's dropdown menu: Enter/Space/ArrowDown open
 * it, arrows move between items, Escape closes it and focus returns to the button. The button sits beside the bubble,
 * never over its content.
 */
function MessageMenu(p: BubbleProps) {
  const { t } = useTranslation();
  const { m } = p;
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className="msg-menu-button" aria-label={t("tickets.messages.options")} data-testid="message-options">
        <ChevronDown size={18} aria-hidden="true" />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="menu-popover" side="bottom" align={m.fromMe ? "end" : "start"} sideOffset={4} collisionPadding={8} loop>
          <Menu.Group className="quick-reactions" aria-label={t("tickets.messages.react")}>
            {QUICK_REACTIONS.map((e) => (
              <Menu.Item key={e} className="quick-reaction" onSelect={() => p.onReact(e)} aria-label={`${t("tickets.messages.react")} ${e}`}>
                {e}
              </Menu.Item>
            ))}
            <Menu.Item className="quick-reaction" onSelect={p.onMoreReactions} aria-label={t("tickets.messages.moreReactions")}>
              <Plus size={18} aria-hidden="true" />
            </Menu.Item>
          </Menu.Group>
          <Menu.Item className="menu-item" onSelect={p.onReply}>
            {t("tickets.messages.reply")}
          </Menu.Item>
          {m.fromMe && m.mediaType === "chat" && (
            <Menu.Item className="menu-item" onSelect={p.onEdit}>
              {t("tickets.messages.edit")}
            </Menu.Item>
          )}
          {m.fromMe && (
            <Menu.Item className="menu-item" onSelect={p.onDelete}>
              {t("tickets.messages.remove")}
            </Menu.Item>
          )}
          <Menu.Item className="menu-item" onSelect={p.onForward}>
            {t("tickets.messages.forward")}
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

export function MessageBubble(p: BubbleProps) {
  const { t } = useTranslation();
  const { m } = p;
  if (m.mediaType === "reactionMessage") return null;
  const isMedia = m.mediaType !== "chat" && m.mediaType !== "call_log";
  const showBody = !m.isDeleted && m.body && !["locationMessage", "contactMessage", "vcard", "sticker", "audio"].includes(m.mediaType) && !(isMedia && m.body === m.mediaName);
  const withMenu = p.canAct && !p.selecting && !m.isDeleted;
  return (
    <div id={`msg-${m.id}`} className={`msg-row ${m.fromMe ? "me" : "them"} ${p.selected ? "selected" : ""}`} data-testid="message" data-message-id={m.id}>
      {p.selecting && (
        <input type="checkbox" className="msg-select" checked={p.selected} onChange={p.onToggleSelect} aria-label={t("tickets.messages.select")} />
      )}
      <div className={`bubble ${m.isDeleted ? "deleted" : ""} ${m.ack < 0 ? "failed" : ""} ${m.mediaType === "image" && m.mediaUrl && !m.isDeleted ? "with-image" : ""}`}>
        {withMenu && (
          <div className="msg-menu">
            <MessageMenu {...p} />
          </div>
        )}
        {m.isForwarded && (
          <div className="msg-flag">
            <Forward size={13} aria-hidden="true" /> {t("tickets.messages.forwarded")}
          </div>
        )}
        {m.isAutomatic && (
          <div className="msg-flag" data-testid="message-automatic">
            <Bot size={13} aria-hidden="true" /> {t("tickets.messages.automatic")}
          </div>
        )}
        {!m.fromMe && m.senderName && m.participant && <div className="msg-sender">{m.senderName}</div>}
        {m.quotedMsg && (
          <button type="button" className={`quoted ${m.quotedMsg.fromMe ? "me" : ""}`} onClick={() => p.onQuoteClick(m.quotedMsg!.id)}>
            <span className="quoted-who">{m.quotedMsg.fromMe ? t("tickets.messages.you") : (m.quotedMsg.senderName ?? "")}</span>
            <span className="quoted-body">
              <QuotedText body={m.quotedMsg.body} mediaType={m.quotedMsg.mediaType} />
            </span>
          </button>
        )}
        {m.isDeleted ? (
          <div className="msg-body deleted-text" data-testid="message-deleted">
            <Ban size={14} aria-hidden="true" /> {t("tickets.messages.deleted")}
          </div>
        ) : (
          <>
            {m.mediaType === "call_log" && <div className="msg-body"><Phone size={14} aria-hidden="true" /> {t("tickets.messages.call")}</div>}
            {isMedia && <MediaContent m={m} onStartConversation={p.onStartConversation} onEnlarge={p.onEnlarge} />}
            {showBody && (
              <div className="msg-body">
                <WhatsappText text={m.isAutomatic ? withoutAutomaticMark(m.body) : m.body} />
              </div>
            )}
          </>
        )}
        <div className="msg-meta">
          {m.isEdited && !m.isDeleted && (
            <span className="msg-flag" data-testid="message-edited">
              {t("tickets.messages.edited")}
            </span>
          )}
          <time dateTime={m.waTimestamp}>{timeOf(m.waTimestamp)}</time>
          {m.fromMe && <Ticks ack={m.ack} />}
        </div>
        {m.ack < 0 && m.fromMe && (
          <div className="msg-failed" role="status">
            <TriangleAlert size={14} aria-hidden="true" /> {t("tickets.messages.failed")}
            {m.mediaType === "chat" && (
              <button type="button" className="chip-button" onClick={p.onRetry}>
                {t("tickets.messages.retry")}
              </button>
            )}
          </div>
        )}
      </div>
      {m.reactions.length > 0 && (
        <div className="reactions" data-testid="reactions">
          {m.reactions.map((r, i) => (
            <span key={i} className="reaction" title={r.fromMe ? t("tickets.messages.you") : (r.senderJid ?? "")}>
              {r.emoji}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
