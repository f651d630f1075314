/**
 * /sandbox — the sandbox phone (docs/architecture.md#2-one-machine-npm-start), local stack only: a person plays the customers of one
 * connection. Pick a connection, see its QR and scan it; pick or type a contact (number and name); chat as that
 * contact in a phone-like view with text, image, audio, location and vCard, edit or delete own messages, react to the
 * agent's; the thread is what the simulated network carried (polled from `/sim/.../thread`, both sides, so a reload
 * or another tab shows the same conversation, messages sent through `/sim` included) and this phone sends the agent's
 * messages' receipts itself (delivered on arrival, read while the page is visible), so the agent sees real ticks and
 * the phone shows them. Pictures (images, stickers) show as pictures and replies with their quote, as on a phone. The
 * vCard ("Enviar") and the edit use the kit's form dialog.
 */
import { TextField } from "@aws-amplify/ui-react";
import { Ban, Check, CheckCheck, Contact, FileText, Image, MapPin, Mic, Paperclip, SendHorizontal, Sticker, Video, type LucideIcon } from "lucide-react";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router-dom";
import { call } from "../../api/operations.ts";
import { useSession } from "../../api/session.ts";
import { SandboxPix } from "./SandboxPix.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { FormDialog, rules } from "../../ui/kit/index.ts";
import { formatPhone, timeOf } from "../tickets/format.ts";
import { WhatsappText } from "../tickets/WhatsappText.tsx";
import { HiddenFileInput } from "../../ui/kit/FileInput.tsx";
import "./sandbox.css";
import { fileToBase64, simEdit, simPictureUrl, simReceipts, simRevoke, simScan, simSend, simState, simThread, type SimInboundBody, type ThreadMessage } from "./api.ts";

type Kind = ThreadMessage["kind"];
interface SavedContact {
  number: string;
  name: string;
}

const POLL_MS = 1000;

/** The line icon of a message kind (one icon set: lucide, as the rest of the app). */
const ICON: Record<Kind, LucideIcon | null> = { text: null, image: Image, audio: Mic, video: Video, document: FileText, location: MapPin, vcard: Contact, sticker: Sticker };

/** A message kind's line icon before its text (none for plain text). */
function KindIcon({ kind }: { kind: Kind }) {
  const Glyph = ICON[kind];
  return Glyph ? <Glyph size={14} aria-hidden="true" className="phone-kind" /> : null;
}

export function SandboxPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const wid = Number(params.get("whatsappId") ?? "") || 0;
  const [widInput, setWidInput] = useState(wid ? String(wid) : "");
  const connections = useQuery({ queryKey: ["sandbox", "whatsapps"], enabled: !!session, queryFn: () => call("GET /api/whatsapp") });
  const state = useQuery({ queryKey: ["sandbox", "state", wid], enabled: wid > 0, queryFn: () => simState(wid), refetchInterval: 1500, retry: false });
  const [contacts, setContacts] = useState<SavedContact[]>(() => JSON.parse(localStorage.getItem("sandbox.contacts") ?? "[]") as SavedContact[]);
  const [number, setNumber] = useState(params.get("number") ?? contacts[0]?.number ?? "5511988887777");
  const [name, setName] = useState(params.get("name") ?? contacts[0]?.name ?? "Cliente Teste");
  const open = !!state.data?.open;
  const validNumber = /^\d{8,20}$/.test(number);

  const pick = (id: number) => {
    const next = new URLSearchParams(params);
    if (id) next.set("whatsappId", String(id));
    else next.delete("whatsappId");
    setParams(next, { replace: true });
    setWidInput(id ? String(id) : "");
  };
  const saveContact = () => {
    if (!validNumber) return;
    const next = [{ number, name }, ...contacts.filter((c) => c.number !== number)].slice(0, 12);
    setContacts(next);
    localStorage.setItem("sandbox.contacts", JSON.stringify(next));
  };

  return (
    <div className="sandbox" data-testid="sandbox">
      <div className="sandbox-panel">
        <h2 style={{ margin: 0 }}>{t("sandbox.title")}</h2>
        <p className="sub-line">{t("sandbox.intro")}</p>
        <div className="field">
          <label className="sub-label" htmlFor="sandbox-connection">
            {t("sandbox.connection")}
          </label>
          {connections.data?.length ? (
            <select id="sandbox-connection" className="text-input" value={wid || ""} onChange={(e) => pick(Number(e.target.value))} data-testid="sandbox-connection">
              <option value="">{t("sandbox.pickConnection")}</option>
              {connections.data.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} (#{w.id})
                </option>
              ))}
            </select>
          ) : (
            <form
              style={{ display: "flex", gap: "0.4rem" }}
              onSubmit={(e) => {
                e.preventDefault();
                pick(Number(widInput));
              }}
            >
              <input className="text-input" inputMode="numeric" value={widInput} onChange={(e) => setWidInput(e.target.value.replace(/\D/g, ""))} id="sandbox-connection" aria-label={t("sandbox.connectionId")} />
              <button type="submit" className="btn-secondary">
                {t("sandbox.use")}
              </button>
            </form>
          )}
        </div>
        {wid > 0 && (
          <div data-testid="sandbox-state" data-open={open}>
            {state.isError ? (
              <p role="alert" className="field-error">
                {t("sandbox.unavailable")}
              </p>
            ) : open ? (
              <p className="status-chip">
                <span className="status-dot online" aria-hidden="true" /> {t("sandbox.connected")}
              </p>
            ) : state.data?.qrcode ? (
              <div style={{ display: "flex", flexDirection: "column", gap: "0.5rem", alignItems: "center" }}>
                <div className="qr-box">
                  <QRCodeSVG value={state.data.qrcode} size={192} marginSize={2} />
                </div>
                <button
                  type="button"
                  className="btn-primary"
                  data-testid="sandbox-scan"
                  onClick={async () => {
                    try {
                      await simScan(wid);
                      await state.refetch();
                    } catch (e) {
                      toast.error(String((e as Error).message));
                    }
                  }}
                >
                  {t("sandbox.scan")}
                </button>
              </div>
            ) : (
              <p className="sub-line">{t("sandbox.noQr")}</p>
            )}
          </div>
        )}
        <fieldset className="fieldset">
          <legend>{t("sandbox.contact")}</legend>
          <div style={{ display: "flex", flexDirection: "column", gap: "0.5rem" }}>
            <label className="field">
              <span className="sub-label">{t("sandbox.number")}</span>
              <input className="text-input" inputMode="numeric" value={number} onChange={(e) => setNumber(e.target.value.replace(/\D/g, ""))} aria-invalid={!validNumber} data-testid="sandbox-number" />
            </label>
            <label className="field">
              <span className="sub-label">{t("sandbox.name")}</span>
              <input className="text-input" value={name} onChange={(e) => setName(e.target.value)} data-testid="sandbox-name" />
            </label>
            {!validNumber && <span className="field-error">{t("sandbox.numberHint")}</span>}
            <button type="button" className="btn-secondary" onClick={saveContact} disabled={!validNumber}>
              {t("sandbox.saveContact")}
            </button>
            {contacts.length > 0 && (
              <div className="sandbox-contacts">
                {contacts.map((c) => (
                  <button
                    key={c.number}
                    type="button"
                    className="chip-button"
                    aria-pressed={c.number === number}
                    onClick={() => {
                      setNumber(c.number);
                      setName(c.name);
                    }}
                  >
                    {c.name}
                  </button>
                ))}
              </div>
            )}
          </div>
        </fieldset>
        <SandboxPix />
      </div>
      {wid > 0 && open && validNumber ? <Phone key={`${wid}:${number}`} wid={wid} business={connections.data?.find((w) => w.id === wid)?.name} number={number} name={name} /> : <div className="phone phone-off" aria-hidden="true" />}
    </div>
  );
}

/** The quote of a reply, as WhatsApp shows it above the answer: who wrote it and its first lines. */
function Quote({ q }: { q: NonNullable<ThreadMessage["quoted"]> }) {
  const { t } = useTranslation();
  return (
    <div className={`quoted ${q.mine ? "me" : ""}`} data-testid="phone-quoted">
      <span className="quoted-who">{q.mine ? t("tickets.messages.you") : t("sandbox.business")}</span>
      <span className="quoted-body">
        {q.deleted ? t("tickets.messages.deleted") : q.text ? <WhatsappText text={q.text} links={false} /> : t(`sandbox.kind.${q.kind}`)}
      </span>
    </div>
  );
}

const { z } = rules;
const vcardSchema = z.object({ name: rules.name(1, 50), number: z.string().trim().regex(/^\+?[\d\s()-]{8,25}$/, "validation.invalidNumber") });
const editSchema = z.object({ text: rules.name(1, 4096) });

/** The customer's phone, chatting with the connection's business (`business`: the connection's name when known). */
function Phone({ wid, business, number, name }: { wid: number; business?: string; number: string; name: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [vcardOpen, setVcardOpen] = useState(false);
  const [editing, setEditing] = useState<ThreadMessage | null>(null);
  const [statuses, setStatuses] = useState<Record<string, number>>({});
  const acked = useRef(new Map<string, number>());
  const bodyRef = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const thread = useQuery({ queryKey: ["sandbox", "thread", wid, number], queryFn: () => simThread(wid, number), refetchInterval: POLL_MS });
  const refresh = () => void thread.refetch();

  // This phone confirms delivery and reading itself while open (automatic receipts off; back on when it closes).
  useEffect(() => {
    void simReceipts(wid, { auto: false }).catch(() => undefined);
    return () => void simReceipts(wid, { auto: true }, true).catch(() => undefined);
  }, [wid]);

  const all = useMemo(() => (thread.data ?? []).map((m) => (m.mine ? m : { ...m, status: statuses[m.id] ?? 2 })), [thread.data, statuses]);
  useEffect(() => {
    const visible = document.visibilityState === "visible";
    for (const m of thread.data ?? []) {
      if (m.mine) continue;
      const have = acked.current.get(m.id) ?? 0;
      const want = visible ? 4 : 3;
      if (have >= want) continue;
      acked.current.set(m.id, want);
      void (async () => {
        try {
          if (have < 3) await simReceipts(wid, { id: m.id, status: 3 });
          if (want === 4) await simReceipts(wid, { id: m.id, status: 4 });
          setStatuses((s) => ({ ...s, [m.id]: want }));
        } catch {
          acked.current.set(m.id, have);
        }
      })();
    }
  }, [thread.data, wid]);
  useEffect(() => {
    const on = () => document.visibilityState === "visible" && void thread.refetch();
    document.addEventListener("visibilitychange", on);
    return () => document.removeEventListener("visibilitychange", on);
  }, [thread]);
  useEffect(() => {
    const el = bodyRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [all.length]);

  const deliver = async (body: Omit<SimInboundBody, "from" | "pushName">) => {
    setBusy(true);
    try {
      await simSend(wid, { from: number, pushName: name, ...body });
      refresh();
      return true;
    } catch (e) {
      toast.error(`${t("sandbox.sendFailed")}: ${(e as Error).message}`);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const sendText = async () => {
    const v = text.trim();
    if (!v) return;
    setText("");
    if (!(await deliver({ text: v }))) setText(v);
  };
  const sendFile = async (f: File) => {
    const b64 = await fileToBase64(f);
    const kind: Kind = f.type.startsWith("image/") ? "image" : f.type.startsWith("audio/") ? "audio" : f.type.startsWith("video/") ? "video" : "document";
    const body: Omit<SimInboundBody, "from" | "pushName"> = { [kind]: b64, mimetype: f.type || "application/octet-stream" };
    if (kind === "document") body.fileName = f.name;
    if (kind === "audio") body.ptt = true;
    if (kind !== "audio" && text.trim()) body.caption = text.trim();
    if (body.caption) setText("");
    if (!(await deliver(body)) && body.caption) setText(body.caption);
  };
  const sendLocation = () => void deliver({ location: { degreesLatitude: -23.5614, degreesLongitude: -46.6559, name: "Av. Paulista", address: "São Paulo - SP" } });
  const sendVcard = async (v: { name: string; number: string }) => {
    const vnum = v.number.replace(/\D/g, "");
    const vcard = `BEGIN:VCARD\nVERSION:3.0\nFN:${v.name}\nTEL;type=CELL;type=VOICE;waid=${vnum}:+${vnum}\nEND:VCARD`;
    await simSend(wid, { from: number, pushName: name, vcard });
    refresh();
  };
  const saveEdit = async (m: ThreadMessage, v: string) => {
    if (v === m.text) return;
    await simEdit(wid, number, name, m.id, v);
    refresh();
  };
  const revoke = async (m: ThreadMessage) => {
    try {
      await simRevoke(wid, number, name, m.id);
      refresh();
    } catch (e) {
      toast.error((e as Error).message);
    }
  };
  const react = async (m: ThreadMessage) => {
    try {
      await simSend(wid, { from: number, pushName: name, reaction: { messageId: m.id, emoji: "👍" } });
      refresh();
    } catch (e) {
      toast.error((e as Error).message);
    }
  };

  return (
    <div className="phone" data-testid="phone">
      <div className="phone-head">
        <span className="avatar avatar-initial" style={{ width: "2.25rem", height: "2.25rem", background: "#128c7e" }} aria-hidden="true">
          {(business?.trim()[0] ?? "A").toUpperCase()}
        </span>
        <div>
          <strong>{business || t("sandbox.chatWith", { id: wid })}</strong>
          <small>
            {name} · {formatPhone(number)}
          </small>
        </div>
      </div>
      <div className="phone-body" ref={bodyRef} aria-live="polite">
        {!all.length && <p className="list-note">{t("sandbox.empty")}</p>}
        {all.map((m) => (
          <div key={m.id} className={`msg-row ${m.mine ? "me" : "them"}`} data-testid={m.mine ? "phone-mine" : "phone-agent"} data-message-id={m.id} data-kind={m.kind}>
            <div className={`bubble ${m.deleted ? "deleted" : ""}`}>
              {m.deleted ? (
                <div className="msg-body deleted-text">
                  <Ban size={14} aria-hidden="true" /> {t("tickets.messages.deleted")}
                </div>
              ) : (
                <>
                  {m.quoted && <Quote q={m.quoted} />}
                  {(m.kind === "image" || m.kind === "sticker") && (
                    <img className={`phone-picture ${m.kind}`} src={simPictureUrl(wid, m.id)} alt={m.text || t(`sandbox.kind.${m.kind}`)} loading="lazy" data-testid="phone-picture" />
                  )}
                  {(m.text || (m.kind !== "text" && m.kind !== "image" && m.kind !== "sticker")) && (
                    <div className="msg-body">
                      <KindIcon kind={m.kind} />
                      {m.text ? <WhatsappText text={m.text} /> : t(`sandbox.kind.${m.kind}`)}
                    </div>
                  )}
                </>
              )}
              <div className="msg-meta">
                {m.edited && !m.deleted && <span className="msg-flag">{t("tickets.messages.edited")}</span>}
                <time dateTime={m.at}>{timeOf(m.at)}</time>
                {"status" in m && (
                  <span className={`ticks ${m.status >= 4 ? "ticks-read" : ""}`} data-testid="phone-ticks" data-status={m.status}>
                    {m.status >= 3 ? <CheckCheck size={14} aria-hidden="true" /> : <Check size={14} aria-hidden="true" />}
                  </span>
                )}
                {m.mine && (
                  <span className="ticks">
                    <Check size={14} aria-hidden="true" />
                  </span>
                )}
              </div>
              {!m.deleted && (
                <div className="phone-msg-actions">
                  {m.mine && m.kind === "text" && (
                    <button type="button" className="chip-button" onClick={() => setEditing(m)} data-testid="phone-edit">
                      {t("sandbox.edit")}
                    </button>
                  )}
                  {m.mine && (
                    <button type="button" className="chip-button" onClick={() => void revoke(m)} data-testid="phone-delete">
                      {t("sandbox.delete")}
                    </button>
                  )}
                  {!m.mine && (
                    <button type="button" className="chip-button" onClick={() => void react(m)} aria-label={t("sandbox.react")}>
                      👍
                    </button>
                  )}
                </div>
              )}
            </div>
            {!!m.reactions?.length && (
              <div className="reactions" data-testid="phone-reactions">
                {m.reactions.map((r) => (
                  <span key={r.mine ? "mine" : "theirs"} className="reaction">
                    {r.emoji}
                  </span>
                ))}
              </div>
            )}
          </div>
        ))}
      </div>
      <div className="phone-foot">
        <button type="button" className="icon-btn" onClick={() => fileRef.current?.click()} aria-label={t("sandbox.attach")} disabled={busy}>
          <Paperclip size={18} aria-hidden="true" />
        </button>
        <HiddenFileInput inputRef={fileRef} testId="phone-file" accept="image/*,audio/*,video/*,application/pdf,.txt,.doc,.docx,.xls,.xlsx" onFiles={([f]) => void sendFile(f)} />
        <button type="button" className="icon-btn" onClick={sendLocation} aria-label={t("sandbox.location")} disabled={busy}>
          <MapPin size={18} aria-hidden="true" />
        </button>
        <button type="button" className="icon-btn" onClick={() => setVcardOpen(true)} aria-label={t("sandbox.vcard")} disabled={busy} data-testid="phone-vcard">
          <Contact size={18} aria-hidden="true" />
        </button>
        <textarea
          className="composer-input"
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t("tickets.composer.placeholder")}
          aria-label={t("tickets.composer.placeholder")}
          data-testid="phone-input"
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              void sendText();
            }
          }}
        />
        <button type="button" className="icon-btn send-btn" onClick={() => void sendText()} aria-label={t("tickets.composer.send")} disabled={busy || !text.trim()} data-testid="phone-send">
          <SendHorizontal size={18} aria-hidden="true" />
        </button>
      </div>
      <FormDialog
        open={vcardOpen}
        title={t("sandbox.vcard")}
        onClose={() => setVcardOpen(false)}
        schema={vcardSchema}
        initial={() => ({ name: "Maria Souza", number: "5511977776666" })}
        onSubmit={sendVcard}
        successText={t("sandbox.vcardSent")}
        submitText={t("sandbox.send")}
        toastMs={2000}
        saveTestId="phone-vcard-send"
      >
        {(f) => (
          <>
            <TextField label={t("sandbox.vcardName")} {...f.text("name")} isRequired autoFocus />
            <TextField label={t("sandbox.vcardNumber")} inputMode="tel" {...f.text("number")} isRequired />
          </>
        )}
      </FormDialog>
      <FormDialog
        open={!!editing}
        title={t("sandbox.editTitle")}
        onClose={() => setEditing(null)}
        schema={editSchema}
        initial={() => ({ text: editing?.text ?? "" })}
        onSubmit={(v) => (editing ? saveEdit(editing, v.text) : Promise.resolve())}
        successText={t("sandbox.edited")}
        toastMs={2000}
        saveTestId="phone-edit-save"
      >
        {(f) => <TextField label={t("sandbox.editPrompt")} {...f.text("text")} isRequired autoFocus />}
      </FormDialog>
    </div>
  );
}
