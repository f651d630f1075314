/**
 * The open conversation (attendance.md §2 Tickets screen right pane, Conversation view, §4 transitions): header with
 * contact, queue and user and the actions (accept, return, resolve, reopen, transfer, delete for admins); the message
 * list grouped by day, loading earlier pages within 50 px of the top without jumping; the composer; the contact
 * drawer. Joins the socket room `joinChatBox` of the ticket while open. A ticket the user may not open shows
 * 'Acesso não permitido' and goes back to /tickets.
 */
import { Fragment, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@aws-amplify/ui-react";
import { apiRequest, HttpError } from "../../api/client.ts";
import { errorMessage } from "../../api/errors.ts";
import { isAdminUser, useSession } from "../../api/session.ts";
import { realtime } from "../../realtime/socket.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { messageActions, useDeleteTicket, useMessagePages, useSendText, useTicketByUuid, useUpdateTicket } from "./api.ts";
import { flattenMessages, upsertMessage } from "./cache.ts";
import { Composer, savedSign } from "./Composer.tsx";
import { Avatar, ContactDrawer } from "./ContactDrawer.tsx";
import { ContactPicker, type Contact } from "./ContactPicker.tsx";
import { dayOf } from "./format.ts";
import { MessageBubble } from "./MessageBubble.tsx";
import { NewTicketDialog } from "./NewTicketDialog.tsx";
import { TransferDialog } from "./TransferDialog.tsx";
import { EmojiPickerLazy } from "./EmojiPickerLazy.tsx";
import { TicketTags } from "../tags/TicketTags.tsx";
import type { Message, Ticket } from "./types.ts";

/** Pause between forwarded messages (attendance.md §9), in ms. */
export const FORWARD_PAUSE_MS = 900;
/** Earlier messages load when the list is scrolled within this many px of the top (attendance.md §9). */
export const TOP_THRESHOLD_PX = 50;

export function Conversation({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const ticketQ = useTicketByUuid(uuid);

  useEffect(() => {
    const e = ticketQ.error;
    if (!e) return;
    if (e instanceof HttpError && (e.status === 403 || e.code === "ERR_NO_PERMISSION")) toast.error(t("tickets.accessDenied"), { durationMs: 2000 });
    else toast.error(errorMessage(e, t), { durationMs: 2000 });
    navigate("/tickets", { replace: true });
  }, [ticketQ.error]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!ticketQ.data)
    return (
      <div className="conversation-empty" role="status">
        {ticketQ.isPending ? t("common.loading") : ""}
      </div>
    );
  return <ConversationView key={ticketQ.data.id} ticket={ticketQ.data} />;
}

function ConversationView({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const me = useSession()!.user;
  const admin = isAdminUser(me);
  const update = useUpdateTicket();
  const del = useDeleteTicket();
  const send = useSendText();
  const pages = useMessagePages(ticket.id);
  const messages = flattenMessages(pages.data);
  const [drawer, setDrawer] = useState(false);
  const [transfer, setTransfer] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);
  const [editText, setEditText] = useState("");
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [reactingTo, setReactingTo] = useState<Message | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [forwardOpen, setForwardOpen] = useState(false);
  const [forwardTo, setForwardTo] = useState<Contact | null>(null);
  const [forwardSign, setForwardSign] = useState(savedSign);
  const [forwarding, setForwarding] = useState(false);
  const [lightbox, setLightbox] = useState<string | null>(null);
  const [startContact, setStartContact] = useState<{ name: string; number: string } | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const firstId = messages[0]?.id;
  const lastId = messages[messages.length - 1]?.id;
  const didInitialScroll = useRef(false);

  // Socket room of the open ticket (attendance.md §7 "joinChatBox ... leave").
  useEffect(() => {
    const join = { action: "joinChatBox", ticketId: ticket.id };
    realtime.join(join);
    return () => realtime.leave(join, { action: "leaveChatBox", ticketId: ticket.id });
  }, [ticket.id]);

  // Keep the view anchored when earlier messages are prepended; follow new messages at the bottom.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
      return;
    }
    if (!didInitialScroll.current && messages.length) {
      didInitialScroll.current = true;
      el.scrollTop = el.scrollHeight;
    }
  }, [firstId]); // eslint-disable-line react-hooks/exhaustive-deps
  const nearBottom = useRef(true);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const last = messages[messages.length - 1];
    if (nearBottom.current || last?.fromMe) el.scrollTop = el.scrollHeight;
  }, [lastId]); // eslint-disable-line react-hooks/exhaustive-deps

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 120;
    if (el.scrollTop < TOP_THRESHOLD_PX && pages.hasNextPage && !pages.isFetchingNextPage) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void pages.fetchNextPage();
    }
  };

  const act = async (body: Parameters<typeof update.mutateAsync>[0]["body"], after?: () => void, okText?: string) => {
    try {
      await update.mutateAsync({ id: ticket.id, body });
      if (okText) toast.success(okText, { durationMs: 2000 });
      after?.();
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    }
  };

  const scrollToMessage = async (id: string) => {
    for (let i = 0; i < 10; i++) {
      const el = document.getElementById(`msg-${id}`);
      if (el) {
        el.scrollIntoView({ block: "center", behavior: "smooth" });
        el.classList.add("flash");
        setTimeout(() => el.classList.remove("flash"), 1500);
        return;
      }
      if (!pages.hasNextPage) return;
      await pages.fetchNextPage();
    }
  };

  const react = async (m: Message, emoji: string) => {
    try {
      await messageActions.react(m.id, emoji);
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    }
  };

  const forward = async () => {
    if (!selected.length) {
      toast.error(t("tickets.messages.forwardNone"), { durationMs: 2000 });
      return;
    }
    if (!forwardTo) return;
    setForwarding(true);
    try {
      const ordered = messages.filter((m) => selected.includes(m.id));
      for (const [i, m] of ordered.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, FORWARD_PAUSE_MS));
        await messageActions.forward(m.id, forwardTo.id, forwardSign);
      }
      toast.success(t("tickets.messages.forwarded_ok"), { durationMs: 2000 });
      setForwardOpen(false);
      setSelecting(false);
      setSelected([]);
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    } finally {
      setForwarding(false);
    }
  };

  const canAct = ticket.status === "open";
  const c = ticket.contact;
  return (
    <div className={`conversation ${drawer ? "with-drawer" : ""}`} data-testid="conversation" data-ticket-id={ticket.id}>
      <div className="conversation-main">
        <header className="conv-header">
          <button type="button" className="icon-btn back-btn" onClick={() => navigate("/tickets")} aria-label={t("tickets.back")}>
            ←
          </button>
          <button type="button" className="conv-contact" onClick={() => setDrawer((v) => !v)} aria-label={t("tickets.contactInfo")} aria-expanded={drawer}>
            <Avatar name={c.name} url={c.profilePicUrl} />
            <span className="conv-contact-text">
              <strong data-testid="conv-contact-name">{c.name}</strong>
              <span className="sub-line">
                {ticket.presence === "composing" ? t("tickets.composing") : ticket.presence === "recording" ? t("tickets.recording") : `#${ticket.id}`}
                {ticket.queue ? ` · ${ticket.queue.name}` : ""}
                {ticket.user ? ` · ${t("tickets.assignedTo", { name: ticket.user.name })}` : ""}
              </span>
            </span>
          </button>
          <TicketTags ticket={ticket} />
          <div className="conv-actions">
            {ticket.status === "pending" && (
              <Button size="small" variation="primary" isLoading={update.isPending} onClick={() => void act({ status: "open", userId: me.id }, undefined, t("tickets.accepted"))}>
                {t("tickets.accept")}
              </Button>
            )}
            {ticket.status === "open" && (
              <>
                <Button size="small" onClick={() => void act({ status: "pending", userId: null }, () => navigate("/tickets"))}>
                  {t("tickets.return")}
                </Button>
                <Button size="small" variation="primary" isLoading={update.isPending} onClick={() => void act({ status: "closed", userId: ticket.userId ?? me.id }, () => navigate("/tickets"), t("tickets.resolved"))}>
                  {t("tickets.resolve")}
                </Button>
              </>
            )}
            {ticket.status === "closed" && (
              <Button size="small" onClick={() => void act({ status: "open", userId: me.id })}>
                {t("tickets.reopen")}
              </Button>
            )}
            <Button size="small" onClick={() => setTransfer(true)}>
              {t("tickets.transfer")}
            </Button>
            {admin && (
              <Button size="small" variation="destructive" onClick={() => setConfirmDelete(true)}>
                {t("tickets.delete")}
              </Button>
            )}
          </div>
        </header>
        <div className="message-list" ref={listRef} onScroll={onScroll} data-testid="message-list" aria-live="polite">
          {pages.isFetchingNextPage && (
            <div className="list-note" role="status">
              {t("tickets.messages.loadingEarlier")}
            </div>
          )}
          {pages.isPending ? (
            <div className="list-note" role="status">
              {t("common.loading")}
            </div>
          ) : pages.isError ? (
            <div className="list-note" role="alert">
              {errorMessage(pages.error, t)}{" "}
              <button type="button" className="chip-button" onClick={() => void pages.refetch()}>
                {t("common.retry")}
              </button>
            </div>
          ) : !messages.length ? (
            <div className="list-note">{t("tickets.messages.noMessages")}</div>
          ) : (
            messages.map((m, i) => {
              const day = dayOf(m.waTimestamp);
              const showDay = i === 0 || dayOf(messages[i - 1].waTimestamp) !== day;
              return (
                <Fragment key={m.id}>
                  {showDay && (
                    <div className="day-sep">
                      <span>{dayLabel(m.waTimestamp, t)}</span>
                    </div>
                  )}
                  <MessageBubble
                    m={m}
                    canAct={canAct}
                    selecting={selecting}
                    selected={selected.includes(m.id)}
                    onToggleSelect={() => setSelected((xs) => (xs.includes(m.id) ? xs.filter((x) => x !== m.id) : [...xs, m.id]))}
                    onReply={() => setReplyTo(m)}
                    onEdit={() => {
                      setEditing(m);
                      setEditText(m.body.replace(/^\*[^*\n]+:\*\n/, ""));
                    }}
                    onDelete={() => setDeleting(m)}
                    onForward={() => {
                      setSelecting(true);
                      setSelected([m.id]);
                    }}
                    onReact={(e) => void react(m, e)}
                    onMoreReactions={() => setReactingTo(m)}
                    onRetry={async () => {
                      try {
                        await send.mutateAsync({ ticketId: ticket.id, body: m.body, signMessage: false });
                      } catch (e) {
                        toast.error(errorMessage(e, t), { durationMs: 2000 });
                      }
                    }}
                    onQuoteClick={(id) => void scrollToMessage(id)}
                    onEnlarge={setLightbox}
                    onStartConversation={(name, number) => setStartContact({ name, number })}
                  />
                </Fragment>
              );
            })
          )}
        </div>
        {selecting ? (
          <div className="selection-bar">
            <span>{t("tickets.messages.selectedCount", { count: selected.length })}</span>
            <Button size="small" onClick={() => (setSelecting(false), setSelected([]))}>
              {t("tickets.messages.cancelSelection")}
            </Button>
            <Button
              size="small"
              variation="primary"
              onClick={() => {
                if (!selected.length) toast.error(t("tickets.messages.forwardNone"), { durationMs: 2000 });
                else setForwardOpen(true);
              }}
            >
              {t("tickets.messages.forward")}
            </Button>
          </div>
        ) : (
          <Composer ticketId={ticket.id} enabled={canAct} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
        )}
      </div>
      {drawer && <ContactDrawer ticket={ticket} onClose={() => setDrawer(false)} />}

      <TransferDialog open={transfer} ticket={ticket} onClose={() => setTransfer(false)} />
      <ConfirmDialog
        open={confirmDelete}
        busy={del.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={async () => {
          try {
            await del.mutateAsync(ticket.id);
            toast.success(t("tickets.deletedTicket"), { durationMs: 2000 });
            navigate("/tickets");
          } catch (e) {
            toast.error(errorMessage(e, t), { durationMs: 2000 });
          }
          setConfirmDelete(false);
        }}
      />
      <Dialog
        open={!!editing}
        title={t("tickets.messages.editTitle")}
        onClose={() => setEditing(null)}
        onSubmit={async () => {
          if (!editing || !editText.trim()) return;
          try {
            const m = await messageActions.edit(editing.id, editText.trim());
            if (m && typeof m === "object" && "id" in m) upsertMessage(qc, m);
            setEditing(null);
          } catch (e) {
            toast.error(errorMessage(e, t), { durationMs: 2000 });
          }
        }}
        footer={
          <>
            <Button onClick={() => setEditing(null)}>{t("common.cancel")}</Button>
            <Button type="submit" variation="primary" isDisabled={!editText.trim()}>
              {t("common.save")}
            </Button>
          </>
        }
      >
        <textarea className="text-input" rows={4} value={editText} onChange={(e) => setEditText(e.target.value)} aria-label={t("tickets.messages.editTitle")} />
      </Dialog>
      <ConfirmDialog
        open={!!deleting}
        title={t("tickets.messages.remove")}
        message={t("tickets.messages.deleteConfirm")}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await messageActions.remove(deleting.id);
          } catch (e) {
            toast.error(errorMessage(e, t), { durationMs: 2000 });
          }
          setDeleting(null);
        }}
      />
      <Dialog open={!!reactingTo} title={t("tickets.messages.react")} onClose={() => setReactingTo(null)} width="24rem">
        <EmojiPickerLazy
          height={360}
          onEmoji={(emoji) => {
            if (reactingTo) void react(reactingTo, emoji);
            setReactingTo(null);
          }}
        />
      </Dialog>
      <Dialog
        open={forwardOpen}
        title={t("tickets.messages.forwardTitle")}
        onClose={() => setForwardOpen(false)}
        onSubmit={forward}
        footer={
          <>
            <Button onClick={() => setForwardOpen(false)}>{t("common.cancel")}</Button>
            <Button type="submit" variation="primary" isDisabled={!forwardTo} isLoading={forwarding}>
              {t("tickets.messages.forward")}
            </Button>
          </>
        }
      >
        <ContactPicker label={t("tickets.messages.forwardTo")} value={forwardTo} onChange={setForwardTo} />
        <label className="sign-toggle">
          <input type="checkbox" checked={forwardSign} onChange={(e) => setForwardSign(e.target.checked)} /> {t("tickets.composer.sign")}
        </label>
      </Dialog>
      <Dialog open={!!lightbox} title={t("tickets.messages.openImage")} onClose={() => setLightbox(null)} width="56rem">
        {lightbox && <img src={lightbox} alt="" className="lightbox-img" />}
        <Button onClick={() => setLightbox(null)}>{t("common.close")}</Button>
      </Dialog>
      {startContact && <StartFromVcard name={startContact.name} number={startContact.number} onClose={() => setStartContact(null)} />}
    </div>
  );
}

/** A vCard's "start conversation": finds the contact by number (creating it when missing) and opens the new ticket dialog. */
function StartFromVcard({ name, number, onClose }: { name: string; number: string; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [contact, setContact] = useState<Contact | null>(null);
  useEffect(() => {
    let gone = false;
    void (async () => {
      try {
        const found = await apiRequest<Contact[]>("GET", "/contacts/list", { query: { searchParam: number } });
        const hit = found.find((x) => x.number === number);
        const c = hit ?? (await apiRequest<Contact>("POST", "/contacts", { body: { name: name.length >= 2 ? name : number, number, email: "" } }));
        if (!gone) setContact(c);
      } catch (e) {
        toast.error(errorMessage(e, t), { durationMs: 2000 });
        onClose();
      }
    })();
    return () => {
      gone = true;
    };
  }, [name, number]); // eslint-disable-line react-hooks/exhaustive-deps
  return contact ? <NewTicketDialog open initialContact={contact} onClose={onClose} /> : null;
}

function dayLabel(iso: string, t: (k: string) => string): string {
  const d = dayOf(iso);
  if (d === dayOf(new Date().toISOString())) return t("tickets.messages.today");
  if (d === dayOf(new Date(Date.now() - 86_400_000).toISOString())) return t("tickets.messages.yesterday");
  return d;
}
