/**
 * Message composer (docs/product/messages.md#sending): a text box that grows to 5 rows, Enter sends and
 * Shift+Enter breaks the line, empty text is not sent; sign toggle (default on, stored as `signOption`); attachments
 * with preview, caption and upload progress; voice recording (start, cancel, send; under 10000 bytes discarded);
 * emoji picker; reply preview with cancel. The features' buttons (`composerActions` slot) sit beside emoji and attach,
 * and a text starting with "/" opens the features' suggestions (`composerShortcuts` slot, `ComposerShortcuts.tsx`).
 */
import { Check, FileText, Mic, Paperclip, SendHorizontal, Smile, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../../api/errors.ts";
import { useToast } from "../../ui/Toast.tsx";
import { uploadMedia, useSendText } from "./api.ts";
import { upsertMessage } from "./cache.ts";
import { EmojiPickerLazy } from "./EmojiPickerLazy.tsx";
import { QuotedText } from "./MediaLabel.tsx";
import { HiddenFileInput } from "../../ui/kit/FileInput.tsx";
import { useSlot } from "../slots.ts";
import type { ComposerApi } from "../types.ts";
import { useShortcuts } from "./ComposerShortcuts.tsx";
import type { Message, Ticket } from "./types.ts";

/** Recorded audio below this size is discarded (a product constant), in bytes. */
export const MIN_AUDIO_BYTES = 10_000;
const SIGN_KEY = "signOption";
const MAX_ROWS = 5;

/** The saved sign toggle (localStorage `signOption`, default on). */
export function savedSign(): boolean {
  return localStorage.getItem(SIGN_KEY) !== "false";
}

export function Composer({ ticket, enabled, replyTo, onCancelReply }: { ticket: Ticket; enabled: boolean; replyTo: Message | null; onCancelReply: () => void }) {
  const ticketId = ticket.id;
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const send = useSendText();
  const [text, setText] = useState("");
  const [sign, setSign] = useState(savedSign);
  const [files, setFiles] = useState<File[]>([]);
  const [caption, setCaption] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const [emoji, setEmoji] = useState(false);
  const [recording, setRecording] = useState(false);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const cancelled = useRef(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setText("");
    setFiles([]);
  }, [ticketId]);
  useEffect(() => {
    if (replyTo) box.current?.focus();
  }, [replyTo]);
  // Grow with the content up to 5 rows.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = "auto";
    const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
    const pad = el.offsetHeight - el.clientHeight + parseFloat(getComputedStyle(el).paddingTop) + parseFloat(getComputedStyle(el).paddingBottom);
    el.style.height = `${Math.min(el.scrollHeight, line * MAX_ROWS + pad)}px`;
  }, [text]);

  const toggleSign = () => {
    localStorage.setItem(SIGN_KEY, String(!sign));
    setSign(!sign);
  };

  const sendBody = async (body: string) => {
    try {
      await send.mutateAsync({ ticketId, body, quotedMsg: replyTo, signMessage: sign });
      onCancelReply();
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    }
  };
  const submitText = async () => {
    const body = text.trim();
    if (!body || !enabled) return;
    setText("");
    setEmoji(false);
    await sendBody(body);
  };

  const sendFiles = async (list: File[], cap: string) => {
    if (!list.length) return;
    setProgress(0);
    try {
      const msgs = await uploadMedia(ticketId, list, cap, (p) => setProgress(p));
      for (const m of msgs) upsertMessage(qc, m);
      setFiles([]);
      setCaption("");
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    } finally {
      setProgress(null);
    }
  };

  const composerApi: ComposerApi = {
    ticket,
    text,
    setText: (next) => {
      setText(next);
      requestAnimationFrame(() => {
        const el = box.current;
        el?.focus();
        el?.setSelectionRange(next.length, next.length);
      });
    },
    sendText: (body) => sendBody(body),
    sendFiles: (list, cap) => sendFiles(list, cap),
  };
  const actions = useSlot("composerActions");
  const shortcuts = useShortcuts(text, composerApi);

  const startRecording = async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const mime = ["audio/ogg;codecs=opus", "audio/webm;codecs=opus", "audio/mp4"].find((m) => MediaRecorder.isTypeSupported?.(m));
      const rec = new MediaRecorder(stream, mime ? { mimeType: mime, audioBitsPerSecond: 128_000 } : undefined);
      chunks.current = [];
      cancelled.current = false;
      rec.ondataavailable = (e) => e.data.size && chunks.current.push(e.data);
      rec.onstop = () => {
        for (const tr of stream.getTracks()) tr.stop();
        setRecording(false);
        if (cancelled.current) return;
        const type = rec.mimeType || "audio/webm";
        const blob = new Blob(chunks.current, { type });
        if (blob.size < MIN_AUDIO_BYTES) {
          toast.warning(t("tickets.composer.recordingShort"), { durationMs: 2000 });
          return;
        }
        const ext = type.includes("ogg") ? "ogg" : type.includes("mp4") ? "m4a" : "webm";
        void sendFiles([new File([blob], `audio-${Date.now()}.${ext}`, { type })], "");
      };
      recorder.current = rec;
      rec.start();
      setRecording(true);
    } catch {
      toast.error(t("tickets.composer.micDenied"), { durationMs: 2000 });
    }
  };
  const stopRecording = (cancel: boolean) => {
    cancelled.current = cancel;
    recorder.current?.stop();
    recorder.current = null;
  };

  if (!enabled)
    return (
      <div className="composer composer-disabled" data-testid="composer-disabled">
        {t("tickets.composer.placeholderClosed")}
      </div>
    );

  return (
    <div className="composer-wrap">
      {replyTo && (
        <div className="reply-preview">
          <div>
            <div className="quoted-who">{t("tickets.messages.replyingTo")}</div>
            <div className="quoted-body">
              <QuotedText body={replyTo.body} mediaType={replyTo.mediaType} />
            </div>
          </div>
          <button type="button" className="icon-btn" onClick={onCancelReply} aria-label={t("tickets.composer.cancelReply")}>
            <X size={18} aria-hidden="true" />
          </button>
        </div>
      )}
      {files.length > 0 && (
        <div className="attach-preview" data-testid="attach-preview">
          <div className="attach-list">
            {files.map((f, i) => (
              <div key={i} className="attach-item">
                {f.type.startsWith("image/") ? <img src={URL.createObjectURL(f)} alt="" /> : <FileText className="line-icon" size={22} aria-hidden="true" />}
                <span className="attach-name">{f.name}</span>
                <button type="button" className="icon-btn" onClick={() => setFiles((xs) => xs.filter((_, j) => j !== i))} aria-label={t("tickets.composer.removeFile")}>
                  <X size={16} aria-hidden="true" />
                </button>
              </div>
            ))}
          </div>
          <div className="attach-actions">
            <input className="caption-input" placeholder={t("tickets.composer.caption")} aria-label={t("tickets.composer.caption")} value={caption} onChange={(e) => setCaption(e.target.value)} />
            {progress !== null ? (
              <span role="status" className="upload-progress">
                <progress max={1} value={progress} /> {t("tickets.composer.uploading", { pct: Math.round(progress * 100) })}
              </span>
            ) : (
              <button type="button" className="btn-primary" onClick={() => void sendFiles(files, caption)}>
                {t("tickets.composer.sendFiles")}
              </button>
            )}
          </div>
        </div>
      )}
      {shortcuts.sources}
      {shortcuts.list}
      {emoji && (
        <div className="emoji-pop">
          <EmojiPickerLazy
            height={320}
            onEmoji={(emoji) => {
              const el = box.current;
              const at = el?.selectionStart ?? text.length;
              setText(text.slice(0, at) + emoji + text.slice(at));
            }}
          />
        </div>
      )}
      <div className="composer">
        <button type="button" className="icon-btn" aria-label={t("tickets.composer.emoji")} aria-pressed={emoji} onClick={() => setEmoji((v) => !v)}>
          <Smile size={22} aria-hidden="true" />
        </button>
        <button type="button" className="icon-btn" aria-label={t("tickets.composer.attach")} onClick={() => fileInput.current?.click()}>
          <Paperclip size={22} aria-hidden="true" />
        </button>
        <HiddenFileInput inputRef={fileInput} multiple testId="file-input" onFiles={setFiles} />
        {actions.map(({ id, Component }) => (
          <Component key={id} composer={composerApi} />
        ))}
        <label className="sign-toggle">
          <input type="checkbox" checked={sign} onChange={toggleSign} />
          <span className="sign-text">{t("tickets.composer.sign")}</span>
        </label>
        {recording ? (
          <div className="recording" role="status">
            <span className="rec-dot" aria-hidden="true" /> {t("tickets.composer.record")}…
            <button type="button" className="icon-btn" onClick={() => stopRecording(true)} aria-label={t("tickets.composer.cancelRecording")}>
              <X size={20} aria-hidden="true" />
            </button>
            <button type="button" className="icon-btn" onClick={() => stopRecording(false)} aria-label={t("tickets.composer.sendRecording")}>
              <Check size={20} aria-hidden="true" />
            </button>
          </div>
        ) : (
          <>
            <textarea
              ref={box}
              rows={1}
              className="composer-input"
              placeholder={t("tickets.composer.placeholder")}
              aria-label={t("tickets.composer.placeholder")}
              value={text}
              onChange={(e) => setText(e.target.value)}
              {...shortcuts.inputProps}
              onKeyDown={(e) => {
                if (shortcuts.onKeyDown(e)) return;
                if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  void submitText();
                }
              }}
            />
            {text.trim() ? (
              <button type="button" className="icon-btn send-btn" aria-label={t("tickets.composer.send")} onClick={() => void submitText()}>
                <SendHorizontal size={22} aria-hidden="true" />
              </button>
            ) : (
              <button type="button" className="icon-btn" aria-label={t("tickets.composer.record")} onClick={() => void startRecording()}>
                <Mic size={22} aria-hidden="true" />
              </button>
            )}
          </>
        )}
      </div>
    </div>
  );
}
