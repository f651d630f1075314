/**
 * The tickets list pane (docs/product/tickets.md#the-list-and-its-tabs): tabs open, group (setting viewgroups or
 * admin), closed (setting viewclosed or admin) and search; inside open and group the sub-tabs assigned (status open)
 * and pending with their counts; admin show-all toggle and close-all with yes/no confirmation; new ticket button.
 * The list is virtualized (@tanstack/react-virtual) and loads the next page 100 px from the bottom. Search waits
 * 500 ms and 3 characters; admins can filter by user. Joins the socket room of the visible status (`joinTickets`).
 */
import { can } from "@atende/shared/access/permissions";
import { DELETED_MESSAGE_PREVIEW } from "@atende/shared/messages/schema";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Ban, Eye, Star } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useNavigate } from "react-router-dom";
import { Button, SwitchField } from "@aws-amplify/ui-react";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { realtime } from "../../realtime/socket.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { useDebounced } from "../../ui/useDebounced.ts";
import { useToast } from "../../ui/Toast.tsx";
import { EntitySelect } from "../../ui/kit/index.ts";
import { useSetting } from "../settings/api.ts";
import { useUserList } from "../users/api.ts";
import { TagChip } from "../tags/TagChip.tsx";
import { useSlot } from "../slots.ts";
import { useSeedJob } from "../jobs/api.ts";
import { JobProgress } from "../jobs/JobProgress.tsx";
import { useCloseAll, useTicketCounts, useTicketPages, useUpdateTicket } from "./api.ts";
import { ticketsKeys } from "./cache.ts";
import { Avatar } from "./ContactDrawer.tsx";
import { ticketAge, useNow } from "./format.ts";
import { showInList, useShowInList, type ListSub, type ListTab } from "./listView.ts";
import { NewTicketDialog } from "./NewTicketDialog.tsx";
import { ChipRow } from "./ChipRow.tsx";
import { MarkedSnippet, PreviewText } from "./MediaLabel.tsx";
import type { Ticket, TicketListParams } from "./types.ts";
import { ListNote } from "../../ui/PageState.tsx";

/** Distance from the bottom that loads the next page (a product constant), in px. */
export const BOTTOM_THRESHOLD_PX = 100;
const ROW_PX = 84;

type Tab = ListTab;
type Sub = ListSub;

export function TicketList({ selectedUuid }: { selectedUuid?: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const me = useSession()!.user;
  // Admins: every ticket, the user filter and the groups/closed tabs whatever the settings; the show-all toggle; close all.
  const seeAll = can(me, "tickets:seeAll");
  const mayShowAll = can(me, "tickets-manager:showall");
  const mayCloseAll = can(me, "tickets:closeAll");
  const viewGroups = useSetting("viewgroups") === "enabled" || seeAll;
  const viewClosed = useSetting("viewclosed") === "enabled" || seeAll;
  const [tab, setTab] = useState<Tab>(() => (sessionStorage.getItem("tickets.tab") as Tab) || "open");
  const [sub, setSub] = useState<Sub>(() => (sessionStorage.getItem("tickets.sub") as Sub) || "open");
  const [showAll, setShowAll] = useState(() => mayShowAll && localStorage.getItem("tickets.showAll") === "true");
  const [search, setSearch] = useState("");
  const [userFilter, setUserFilter] = useState<number | null>(null);
  // The features' filters of the search tab (`ticketListFilters` slot, e.g. tags), by filter id.
  const filters = useSlot("ticketListFilters");
  const [filterValues, setFilterValues] = useState<Record<string, unknown>>({});
  const filterValue = (f: (typeof filters)[number]) => (f.id in filterValues ? filterValues[f.id] : f.initial) as never;
  const filterQuery = filters.map((f) => f.query(filterValue(f)));
  const [newOpen, setNewOpen] = useState(false);
  const [closeAllOpen, setCloseAllOpen] = useState(false);
  const closeAll = useCloseAll();
  // Closing all is a background job: its progress shows above the list; the lists refresh when it is done.
  const [closeJobId, setCloseJobId] = useState<string | null>(null);
  const seedJob = useSeedJob();
  const qc = useQueryClient();
  const refreshLists = useCallback(() => void qc.invalidateQueries({ queryKey: ticketsKeys.listsAll }), [qc]);
  const users = useUserList();
  const term = useDebounced(search.trim(), 500);

  // Accepting (here or in the conversation) shows the ticket where it now is: "Atendendo", selected.
  useShowInList((place) => {
    setTab(place.tab);
    setSub(place.sub);
  });
  useEffect(() => sessionStorage.setItem("tickets.tab", tab), [tab]);
  useEffect(() => sessionStorage.setItem("tickets.sub", sub), [sub]);
  useEffect(() => {
    if ((tab === "group" && !viewGroups) || (tab === "closed" && !viewClosed)) setTab("open");
  }, [tab, viewGroups, viewClosed]);

  const isGroup = tab === "group" ? true : tab === "open" ? false : undefined;
  const common = { showAll: mayShowAll && showAll ? true : undefined };
  const openParams: TicketListParams = { status: "open", isGroup, ...common };
  const pendingParams: TicketListParams = { status: "pending", isGroup, ...common };
  const closedParams: TicketListParams = { status: "closed", ...common };
  const searchParams: TicketListParams = {
    searchParam: term.length >= 3 ? term : undefined,
    users: userFilter ? [userFilter] : undefined,
    tags: filterQuery.flatMap((q) => q.tags ?? []).length ? filterQuery.flatMap((q) => q.tags ?? []) : undefined,
    showAll: seeAll ? true : undefined,
  };
  const inSubTabs = tab === "open" || tab === "group";
  const openQ = useTicketPages(openParams, inSubTabs);
  const pendingQ = useTicketPages(pendingParams, inSubTabs);
  const closedQ = useTicketPages(closedParams, tab === "closed");
  const searchOk = term.length >= 3 || !!userFilter || filters.some((f) => f.active(filterValue(f)));
  const searchQ = useTicketPages(searchParams, tab === "search" && searchOk);
  const current = tab === "closed" ? closedQ : tab === "search" ? searchQ : sub === "open" ? openQ : pendingQ;

  // Socket room of the visible status (`joinTickets`; docs/product/realtime.md#rooms).
  const roomStatus = tab === "closed" ? "closed" : tab === "search" ? null : sub;
  useEffect(() => {
    if (!roomStatus) return;
    const frame = { action: "joinTickets", status: roomStatus };
    realtime.join(frame);
    return () => realtime.leave(frame);
  }, [roomStatus]);

  // The exact counts of what each sub-tab lists (docs/product/tickets.md#tab-counts); until they arrive, the rows loaded.
  const counts = useTicketCounts(common, inSubTabs);
  const countOf = (s: Sub, q: typeof openQ) => {
    if (counts.data) return String(tab === "group" ? (s === "open" ? counts.data.groupOpen : counts.data.groupPending) : counts.data[s]);
    const pages = q.data?.pages ?? [];
    const n = pages.reduce((sum, p) => sum + p.tickets.length, 0);
    return `${n}${pages[pages.length - 1]?.hasMore ? "+" : ""}`;
  };

  const tabs: { id: Tab; label: string; show: boolean }[] = [
    { id: "open", label: t("tickets.tabs.open"), show: true },
    { id: "group", label: t("tickets.tabs.group"), show: viewGroups },
    { id: "closed", label: t("tickets.tabs.closed"), show: viewClosed },
    { id: "search", label: t("tickets.tabs.search"), show: true },
  ];

  return (
    <div className="ticket-list-pane">
      <div className="tl-tabs" role="tablist" aria-label={t("tickets.title")}>
        {tabs
          .filter((x) => x.show)
          .map((x) => (
            <button key={x.id} type="button" role="tab" aria-selected={tab === x.id} className={`tl-tab ${tab === x.id ? "active" : ""}`} onClick={() => setTab(x.id)} data-testid={`tab-${x.id}`}>
              {x.label}
            </button>
          ))}
      </div>
      <div className="tl-tools">
        {tab === "search" ? (
          <div className="tl-search">
            <input
              className="text-input"
              type="search"
              autoFocus
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => e.key === "Escape" && setSearch("")}
              placeholder={t("tickets.searchPlaceholder")}
              aria-label={t("tickets.searchPlaceholder")}
              data-testid="ticket-search"
            />
            {filters.map((f) => (
              <f.Component key={f.id} value={filterValue(f)} onChange={(v) => setFilterValues((o) => ({ ...o, [f.id]: v }))} />
            ))}
            {seeAll && (
              <EntitySelect label={t("tickets.userFilter")} labelHidden items={users.data ?? []} value={userFilter} onChange={setUserFilter} noneLabel={t("tickets.allUsers")} testId="user-filter" />
            )}
          </div>
        ) : (
          <>
            <Button size="small" variation="primary" onClick={() => setNewOpen(true)} data-testid="new-ticket">
              {t("tickets.newTicket")}
            </Button>
            {mayShowAll && (
              <SwitchField
                label={t("tickets.showAll")}
                size="small"
                isChecked={showAll}
                onChange={(e) => {
                  setShowAll(e.target.checked);
                  localStorage.setItem("tickets.showAll", String(e.target.checked));
                }}
              />
            )}
            {mayCloseAll && inSubTabs && (
              <Button size="small" variation="link" onClick={() => setCloseAllOpen(true)}>
                {t("tickets.closeAll")}
              </Button>
            )}
          </>
        )}
      </div>
      {inSubTabs && (
        <div className="tl-subtabs" role="tablist">
          {(["open", "pending"] as Sub[]).map((s) => (
            <button key={s} type="button" role="tab" aria-selected={sub === s} className={`tl-subtab ${sub === s ? "active" : ""}`} onClick={() => setSub(s)} data-testid={`subtab-${s}`}>
              {s === "open" ? t("tickets.tabs.assigned") : t("tickets.tabs.pending")}
              <span className="count-badge" data-testid={`count-${s}`}>
                {countOf(s, s === "open" ? openQ : pendingQ)}
              </span>
            </button>
          ))}
        </div>
      )}
      <JobProgress jobId={closeJobId} onDone={refreshLists} onDismiss={() => setCloseJobId(null)} />
      {tab === "search" && !searchOk ? (
        <p className="list-note">{t("tickets.searchHint")}</p>
      ) : (
        <VirtualTickets q={current} selectedUuid={selectedUuid} mark={tab === "search" ? term : undefined} />
      )}
      <NewTicketDialog open={newOpen} onClose={() => setNewOpen(false)} />
      <ConfirmDialog
        open={closeAllOpen}
        title={t("tickets.closeAllTitle")}
        message={t("tickets.closeAllConfirm")}
        busy={closeAll.isPending}
        onClose={() => setCloseAllOpen(false)}
        onConfirm={async () => {
          try {
            const started = await closeAll.mutateAsync({ status: sub, selectedQueueIds: me.queues?.map((q) => q.id) });
            seedJob(started.job);
            setCloseJobId(started.jobId);
          } catch (e) {
            toast.error(errorMessage(e, t), { durationMs: 2000 });
          }
          setCloseAllOpen(false);
        }}
      />
    </div>
  );
}

function VirtualTickets({ q, selectedUuid, mark }: { q: ReturnType<typeof useTicketPages>; selectedUuid?: string; mark?: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const tickets = q.data?.pages.flatMap((p) => p.tickets) ?? [];
  const v = useVirtualizer({ count: tickets.length, getScrollElement: () => ref.current, estimateSize: () => ROW_PX, overscan: 8 });
  const now = useNow();
  const onScroll = () => {
    const el = ref.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_THRESHOLD_PX && q.hasNextPage && !q.isFetchingNextPage) void q.fetchNextPage();
  };
  // A short first page may not fill the pane: keep loading while there is no scrollbar.
  useEffect(() => {
    const el = ref.current;
    if (el && el.scrollHeight <= el.clientHeight + BOTTOM_THRESHOLD_PX && q.hasNextPage && !q.isFetchingNextPage) void q.fetchNextPage();
  }, [tickets.length, q.hasNextPage, q.isFetchingNextPage]); // eslint-disable-line react-hooks/exhaustive-deps

  if ((q.isPending && q.fetchStatus !== "idle") || q.isError || !tickets.length)
    return (
      <ListNote
        pending={q.isPending && q.fetchStatus !== "idle"}
        error={q.isError ? q.error : undefined}
        onRetry={() => void q.refetch()}
        empty={<p className="list-note">{t("tickets.noTickets")}</p>}
        note="list-note"
        retry="chip-button"
      />
    );
  return (
    <div className="tl-scroll" ref={ref} onScroll={onScroll} data-testid="ticket-list">
      <ul className="tl-inner" style={{ height: v.getTotalSize() }}>
        {v.getVirtualItems().map((row) => {
          const tk = tickets[row.index];
          return (
            <li key={tk.id} className="tl-row-slot" style={{ transform: `translateY(${row.start}px)`, height: ROW_PX }}>
              <TicketRow ticket={tk} now={now} selected={tk.uuid === selectedUuid} mark={mark} />
            </li>
          );
        })}
      </ul>
      {q.isFetchingNextPage && (
        <p className="list-note" role="status">
          {t("common.loadingMore")}
        </p>
      )}
    </div>
  );
}

function TicketRow({ ticket, now, selected, mark }: { ticket: Ticket; now: number; selected: boolean; mark?: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const me = useSession()!.user;
  const update = useUpdateTicket();
  const age = ticketAge(ticket.updatedAt, now);
  const presence = ticket.presence === "composing" ? t("tickets.composing") : ticket.presence === "recording" ? t("tickets.recording") : "";
  return (
    <div className={`tl-row ${selected ? "selected" : ""}`} data-testid="ticket-row" data-ticket-id={ticket.id} data-status={ticket.status}>
      <span className="tl-queue-bar" style={{ background: ticket.queue?.color ?? "var(--amplify-colors-neutral-40)" }} aria-hidden="true" />
      <NavLink to={`/tickets/${ticket.uuid}`} className="tl-link" aria-current={selected ? "page" : undefined}>
        <Avatar name={ticket.contact.name} url={ticket.contact.profilePicUrl} />
        <span className="tl-text">
          <span className="tl-line1">
            <strong className="tl-name">{ticket.contact.name}</strong>
            <span className={`age age-${age.color ?? "none"}`} data-testid="ticket-age">
              {t(`tickets.age.${age.unit}`, { n: age.n })}
            </span>
          </span>
          <span className="tl-line2">
            <span className={`tl-last ${presence ? "presence" : ""}`} data-testid="ticket-preview">
              {presence ||
                (ticket.searchSnippet && mark ? (
                  <MarkedSnippet text={ticket.searchSnippet} term={mark} />
                ) : ticket.lastMessage === DELETED_MESSAGE_PREVIEW ? (
                  <span className="deleted-text">
                    <Ban size={13} aria-hidden="true" /> {t("tickets.messages.deleted")}
                  </span>
                ) : (
                  <PreviewText text={ticket.lastMessage} />
                ))}
            </span>
            {ticket.unreadMessages > 0 && (
              <span className="unread" role="img" aria-label={t("tickets.unread", { count: ticket.unreadMessages })} data-testid="unread">
                {ticket.unreadMessages}
              </span>
            )}
          </span>
          <ChipRow className="tl-line3">
            {/* The ticket's state first: it stays in view when the other chips give way to "+N". */}
            {ticket.ratingAt && (
              <span className="tag rating-pending" data-testid="rating-pending">
                <Star size={12} aria-hidden="true" /> {t("tickets.ratingPending")}
              </span>
            )}
            <span className="tag" style={{ borderColor: ticket.queue?.color ?? undefined }}>
              {ticket.queue?.name ?? t("tickets.noQueue")}
            </span>
            {ticket.whatsapp && <span className="tag">{ticket.whatsapp.name}</span>}
            {ticket.user && <span className="tag">{ticket.user.name}</span>}
            {ticket.isGroup && <span className="tag">{t("tickets.group")}</span>}
            {ticket.tags?.map((tg) => (
              <TagChip key={tg.id} tag={tg} small />
            ))}
          </ChipRow>
        </span>
      </NavLink>
      {ticket.status === "pending" && can(me, "tickets:seeAll") && (
        <button
          type="button"
          className="icon-btn tl-peek"
          data-testid="peek"
          aria-label={t("tickets.peek")}
          title={t("tickets.peek")}
          onClick={() => navigate(`/tickets/${ticket.uuid}?peek`)}
        >
          <Eye size={18} aria-hidden="true" />
        </button>
      )}
      {ticket.status === "pending" && (
        <button
          type="button"
          className="btn-primary tl-accept"
          data-testid="accept"
          disabled={update.isPending}
          onClick={async () => {
            try {
              const accepted = await update.mutateAsync({ id: ticket.id, body: { status: "open", userId: me.id } });
              showInList(accepted);
              navigate(`/tickets/${ticket.uuid}`);
            } catch (e) {
              toast.error(errorMessage(e, t), { durationMs: 2000 });
            }
          }}
        >
          {t("tickets.accept")}
        </button>
      )}
    </div>
  );
}
