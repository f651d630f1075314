/**
 * The open conversation (the Tickets screen's right pane; docs/product/tickets.md#statuses-and-transitions): the header
 * (`ConversationHeader.tsx`), the message list grouped by day with the contact's earlier tickets above this one's
 * (`useConversationMessages.ts`: older pages on scroll-up without jumping; a divider per ticket), the composer and
 * the contact drawer. The message dialogs live in `MessageDialogs.tsx`. Joins the socket room `joinChatBox` of the
 * ticket while open. A ticket the user may not open shows 'Acesso não permitido' and goes back to /tickets.
 * `peek` (an admin's eye on a waiting ticket) shows it read-only: no composer, nothing marked read, still pending.
 */
import { can } from "@atende/shared/access/permissions";
import { Fragment, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { Button } from "@aws-amplify/ui-react";
import { HttpError } from "../../api/client.ts";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { realtime } from "../../realtime/socket.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { messageActions, useDeleteTicket, useSendText, useTicketByUuid, useUpdateTicket } from "./api.ts";
import { Composer } from "./Composer.tsx";
import { ContactDrawer } from "./ContactDrawer.tsx";
import { ConversationHeader, type HeaderAction } from "./ConversationHeader.tsx";
import { dayOf } from "./format.ts";
import { showInList } from "./listView.ts";
import { MessageBubble } from "./MessageBubble.tsx";
import { TransferDialog } from "./TransferDialog.tsx";
import { EditMessageDialog, ForwardDialog, StartFromVcard } from "./MessageDialogs.tsx";
import { EmojiPickerLazy } from "./EmojiPickerLazy.tsx";
import { useConversationMessages } from "./useConversationMessages.ts";
import type { Message, Ticket } from "./types.ts";
import { ListNote } from "../../ui/PageState.tsx";
import { useSlot } from "../slots.ts";

export function Conversation({ uuid, peek = false }: { uuid: string; peek?: boolean }) {
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
  // Leaving the peek remounts the view: its first page is read again, now as attended (unread reset, receipts).
  return <ConversationView key={`${ticketQ.data.id}-${peek}`} ticket={ticketQ.data} peek={peek} />;
}

function ConversationView({ ticket, peek }: { ticket: Ticket; peek: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const me = useSession()!.user;
  const mayDelete = can(me, "ticket-options:deleteTicket");
  const update = useUpdateTicket();
  const del = useDeleteTicket();
  const send = useSendText();
  const { pages, messages, listRef, onScroll, readerScrolls, loadingOlder, hasEarlier } = useConversationMessages(ticket.id, peek);
  const [drawer, setDrawer] = useState(false);
  // The ticket area's tabs: Ticket (this conversation) and the features' (`ticketTabs` slot, e.g. Atendimentos).
  const tabs = useSlot("ticketTabs");
  const [tab, setTab] = useState("ticket");
  const ActiveTab = tabs.find((x) => x.id === tab)?.Component;
  const contactButton = useRef<HTMLButtonElement>(null);
  const [transfer, setTransfer] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [reactingTo, setReactingTo] = useState<Message | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [forwardOpen, setForwardOpen] = useState(false);
  const [lightbox, setLightbox] = useState<string | null>(null);
  const [startContact, setStartContact] = useState<{ name: string; number: string } | null>(null);

  // Socket room of the open ticket (`joinChatBox`, left on unmount; docs/product/realtime.md#rooms).
  useEffect(() => {
    const join = { action: "joinChatBox", ticketId: ticket.id };
    realtime.join(join);
    return () => realtime.leave(join, { action: "leaveChatBox", ticketId: ticket.id });
  }, [ticket.id]);

  const act = async (body: Parameters<typeof update.mutateAsync>[0]["body"], after?: (t: Ticket) => void, okText?: string) => {
    try {
      const changed = await update.mutateAsync({ id: ticket.id, body });
      if (okText) toast.success(okText, { durationMs: 2000 });
      after?.(changed);
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: 2000 });
    }
  };

  const scrollToMessage = async (id: string) => {
    for (let i = 0; i < 10; i++) {
      const el = document.getElementById(`msg-${id}`);
      if (el) {
        readerScrolls();
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

  const closeDrawer = () => {
    setDrawer(false);
    contactButton.current?.focus();
  };

  const actions: HeaderAction[] = [];
  if (ticket.status === "pending")
    actions.push({ id: "accept", label: t("tickets.accept"), variation: "primary", busy: update.isPending, run: () =>
        void act(
          { status: "open", userId: me.id },
          (changed) => {
            showInList(changed);
            if (peek) navigate(`/tickets/${ticket.uuid}`, { replace: true });
          },
          t("tickets.accepted"),
        ),
    });
  if (ticket.status === "open") {
    actions.push({ id: "return", label: t("tickets.return"), run: () => void act({ status: "pending", userId: null }, () => navigate("/tickets")) });
    actions.push({
      id: "resolve",
      label: t("tickets.resolve"),
      variation: "primary",
      busy: update.isPending,
      run: () => void act({ status: "closed", userId: ticket.userId ?? me.id }, () => navigate("/tickets"), t("tickets.resolved")),
    });
  }
  if (ticket.status === "closed") actions.push({ id: "reopen", label: t("tickets.reopen"), run: () => void act({ status: "open", userId: me.id }, showInList) });
  actions.push({ id: "transfer", label: t("tickets.transfer"), run: () => setTransfer(true) });
  if (mayDelete) actions.push({ id: "delete", label: t("tickets.delete"), variation: "destructive", run: () => setConfirmDelete(true) });

  const canAct = ticket.status === "open";
  return (
    <div className={`conversation ${drawer ? "with-drawer" : ""}`} data-testid="conversation" data-ticket-id={ticket.id}>
      <div className="conversation-main">
        <ConversationHeader ticket={ticket} actions={actions} drawerOpen={drawer} onToggleDrawer={() => (drawer ? closeDrawer() : setDrawer(true))} contactButtonRef={contactButton} />
        {tabs.length > 0 && (
          <div className="ticket-tabs" role="tablist" aria-label={t("tickets.areaTabs")}>
            {[{ id: "ticket", labelKey: "tickets.ticketTab" }, ...tabs].map((x) => (
              <button key={x.id} type="button" role="tab" aria-selected={tab === x.id} className="ticket-tab" onClick={() => setTab(x.id)} data-testid={`ticket-tab-${x.id}`}>
                {t(x.labelKey)}
              </button>
            ))}
          </div>
        )}
        {ActiveTab && (
          <div className="ticket-tab-panel" role="tabpanel">
            <ActiveTab ticket={ticket} />
          </div>
        )}
        <div className="message-list" ref={listRef} onScroll={onScroll} data-testid="message-list" aria-live="polite" hidden={!!ActiveTab}>
          {loadingOlder && (
            <div className="list-note" role="status">
              {t("tickets.messages.loadingEarlier")}
            </div>
          )}
          {pages.isPending || pages.isError || !messages.length ? (
            <ListNote
              pending={pages.isPending}
              error={pages.isError ? pages.error : undefined}
              onRetry={() => void pages.refetch()}
              empty={<div className="list-note">{t("tickets.messages.noMessages")}</div>}
              note="list-note"
              retry="chip-button"
            />
          ) : (
            messages.map((m, i) => {
              const prev = messages[i - 1];
              const day = dayOf(m.waTimestamp);
              const showDay = i === 0 || dayOf(prev.waTimestamp) !== day;
              const showTicket = hasEarlier && (i === 0 || prev.ticketId !== m.ticketId);
              const earlier = m.ticketId !== ticket.id;
              return (
                <Fragment key={`${m.ticketId}-${m.id}`}>
                  {showTicket && (
                    <div className={`ticket-sep ${earlier ? "earlier" : ""}`} data-testid="ticket-divider" data-ticket-id={m.ticketId} role="separator">
                      <span>{t("tickets.messages.ticketDivider", { id: m.ticketId })}</span>
                    </div>
                  )}
                  {(showDay || showTicket) && (
                    <div className="day-sep">
                      <span>{dayLabel(m.waTimestamp, t)}</span>
                    </div>
                  )}
                  <MessageBubble
                    m={m}
                    canAct={canAct && !earlier}
                    selecting={selecting && !earlier}
                    selected={selected.includes(m.id)}
                    onToggleSelect={() => setSelected((xs) => (xs.includes(m.id) ? xs.filter((x) => x !== m.id) : [...xs, m.id]))}
                    onReply={() => setReplyTo(m)}
                    onEdit={() => setEditing(m)}
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
        {ActiveTab ? null : selecting ? (
          <div className="selection-bar">
            <span>{t("tickets.messages.selectedCount", { count: selected.length })}</span>
            <Button size="small" onClick={() => {
                setSelecting(false);
                setSelected([]);
              }}>
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
        ) : peek ? (
          <div className="composer-disabled" role="note" data-testid="peek-note">
            {t("tickets.peekNote")}
          </div>
        ) : (
          <Composer ticket={ticket} enabled={canAct} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
        )}
      </div>
      {drawer && <ContactDrawer ticket={ticket} onClose={closeDrawer} />}

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
      <EditMessageDialog message={editing} onClose={() => setEditing(null)} />
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
      <ForwardDialog
        open={forwardOpen}
        messages={messages.filter((m) => selected.includes(m.id))}
        onClose={() => setForwardOpen(false)}
        onDone={() => {
          setForwardOpen(false);
          setSelecting(false);
          setSelected([]);
        }}
      />
      <Dialog open={!!lightbox} title={t("tickets.messages.openImage")} onClose={() => setLightbox(null)} width="56rem">
        {lightbox && <img src={lightbox} alt="" className="lightbox-img" />}
        <Button onClick={() => setLightbox(null)}>{t("common.close")}</Button>
      </Dialog>
      {startContact && <StartFromVcard name={startContact.name} number={startContact.number} onClose={() => setStartContact(null)} />}
    </div>
  );
}

function dayLabel(iso: string, t: (k: string) => string): string {
  const d = dayOf(iso);
  if (d === dayOf(new Date().toISOString())) return t("tickets.messages.today");
  if (d === dayOf(new Date(Date.now() - 86_400_000).toISOString())) return t("tickets.messages.yesterday");
  return d;
}
