/**
 * /contacts (attendance.md §2 Contacts page, §5, §6, §9; issue 4 §4): search box (3+ characters, 500 ms debounce),
 * select all / unselect all and delete selected (admins: `contacts-page:deleteContact`), add button; a table of
 * checkbox, photo, name, WhatsApp number (`+CC (AA) number`), email, last interaction, status and actions (start a
 * conversation, edit, delete after 'Deseja realmente excluir este registro?'); infinite scroll (next page within
 * 100 px of the bottom); live updates through the realtime table (`company-{id}-contact` → `upsertContact` /
 * `removeContact`). Starting a conversation opens the New ticket dialog with the contact chosen; on success it goes to
 * `/tickets/{uuid}`. Import/export is left out: the API has no upload/import/export route.
 */
import { Button, Flex, Heading, SearchField, Table, TableBody, TableCell, TableHead, TableRow, Text } from "@aws-amplify/ui-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { isAdminUser, useSession } from "../../api/session.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { formatDate } from "../../ui/format.ts";
import { LoadingMore, PageState } from "../../ui/PageState.tsx";
import { HeaderCells } from "../../ui/HeaderCells.tsx";
import { ATTENDANCE_TOAST_MS, useToast } from "../../ui/Toast.tsx";
import { useDebounced } from "../../ui/useDebounced.ts";
import { Avatar } from "../tickets/ContactDrawer.tsx";
import { NewTicketDialog } from "../tickets/NewTicketDialog.tsx";
import { useContactPages, useDeleteContact, type Contact } from "./api.ts";
import { ContactDialog } from "./ContactDialog.tsx";
import "./contacts.css";
import "./i18n.ts";
import { ChatIcon, DeleteIcon, EditIcon } from "./icons.tsx";
import { formatContactNumber } from "./phone.ts";

/** Distance from the bottom (px) at which the next page loads (attendance.md §9). */
const NEAR_BOTTOM_PX = 100;
/** Search debounce (ms) and minimum length (attendance.md §5). */
const SEARCH_DEBOUNCE_MS = 500;
const SEARCH_MIN_CHARS = 3;
const toastOpts = { durationMs: ATTENDANCE_TOAST_MS };

export function ContactsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const admin = isAdminUser(useSession()?.user);
  const [searchText, setSearchText] = useState("");
  const typed = searchText.trim();
  const debounced = useDebounced(typed, SEARCH_DEBOUNCE_MS);
  const search = debounced.length >= SEARCH_MIN_CHARS ? debounced : "";
  const q = useContactPages(search);
  const del = useDeleteContact();
  const [editing, setEditing] = useState<Contact | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [deletingSelected, setDeletingSelected] = useState(false);
  const [bulkBusy, setBulkBusy] = useState(false);
  const [ticketFor, setTicketFor] = useState<Contact | null>(null);
  const [picked, setPicked] = useState<Set<number>>(() => new Set());
  const scroller = useRef<HTMLDivElement>(null);

  const contacts = useMemo(() => q.data?.pages.flatMap((p) => p.contacts) ?? [], [q.data]);
  // Only contacts still on screen count as selected (a live delete or a new search drops the others).
  const selected = useMemo(() => contacts.filter((c) => picked.has(c.id)), [contacts, picked]);
  const allSelected = contacts.length > 0 && selected.length === contacts.length;

  const maybeLoadMore = () => {
    const el = scroller.current;
    if (!el || !q.hasNextPage || q.isFetchingNextPage) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX) void q.fetchNextPage();
  };
  // A first page that does not fill the box cannot be scrolled: load more until it does.
  useEffect(maybeLoadMore, [q.data, q.hasNextPage, q.isFetchingNextPage]); // eslint-disable-line react-hooks/exhaustive-deps

  const toggle = (id: number) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setPicked(allSelected ? new Set() : new Set(contacts.map((c) => c.id)));

  const openDialog = (c: Contact | null) => {
    setEditing(c);
    setDialogOpen(true);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await del.mutateAsync(deleting.id);
      toast.success(t("contacts.deleted"), toastOpts);
    } catch (e) {
      toast.error(errorMessage(e, t), toastOpts);
    }
    setDeleting(null);
  };

  /** Deletes the selected contacts one by one; the ones that failed stay selected. */
  const confirmDeleteSelected = async () => {
    setBulkBusy(true);
    const failed = new Set<number>();
    let firstError: unknown;
    for (const c of selected) {
      try {
        await del.mutateAsync(c.id);
      } catch (e) {
        failed.add(c.id);
        firstError ??= e;
      }
    }
    setBulkBusy(false);
    setDeletingSelected(false);
    setPicked(failed);
    if (firstError) toast.error(errorMessage(firstError, t), toastOpts);
    else toast.success(t("contacts.deletedMany", { count: selected.length }), toastOpts);
  };

  const hint = typed.length > 0 && typed.length < SEARCH_MIN_CHARS;

  return (
    <section className="page" aria-labelledby="contacts-title">
      <Flex className="page-header" alignItems="center" justifyContent="space-between" wrap="wrap" gap="0.75rem">
        <Heading level={2} id="contacts-title">
          {t("contacts.title")}
        </Heading>
        <Flex gap="0.5rem" alignItems="center" className="page-tools contacts-tools">
          <SearchField
            label={t("common.search")}
            labelHidden
            placeholder={t("contacts.searchPlaceholder")}
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            onClear={() => setSearchText("")}
            size="small"
          />
          {admin && (
            <>
              <Button size="small" className="contacts-select-all" onClick={toggleAll} isDisabled={!contacts.length} data-testid="contacts-select-all">
                {allSelected ? t("contacts.unselectAll") : t("contacts.selectAll")}
              </Button>
              <Button size="small" variation="destructive" isDisabled={!selected.length} onClick={() => setDeletingSelected(true)} data-testid="contacts-delete-selected">
                {selected.length ? t("contacts.deleteSelectedCount", { count: selected.length }) : t("contacts.deleteSelected")}
              </Button>
            </>
          )}
          <Button variation="primary" size="small" onClick={() => openDialog(null)} data-testid="contacts-add">
            {t("contacts.add")}
          </Button>
        </Flex>
      </Flex>
      {hint && (
        <Text className="contacts-hint" fontSize="small" variation="secondary" role="status">
          {t("contacts.searchHint")}
        </Text>
      )}
      <div className="table-scroll" ref={scroller} onScroll={maybeLoadMore} data-testid="contacts-scroll">
        <PageState loading={q.isPending} error={q.isError ? errorMessage(q.error, t) : undefined} empty={!q.isPending && !contacts.length} onRetry={() => void q.refetch()}>
          <Table size="small" highlightOnHover className="data-table contacts-table" aria-labelledby="contacts-title">
            <TableHead>
              <TableRow>
                {admin && (
                  <TableCell as="th" scope="col" className="col-check">
                    <input
                      type="checkbox"
                      className="contacts-check"
                      checked={allSelected}
                      ref={(el) => {
                        if (el) el.indeterminate = selected.length > 0 && !allSelected;
                      }}
                      onChange={toggleAll}
                      aria-label={allSelected ? t("contacts.unselectAll") : t("contacts.selectAll")}
                    />
                  </TableCell>
                )}
                <TableCell as="th" scope="col" className="col-photo">
                  <span className="sr-only">{t("contacts.photo")}</span>
                </TableCell>
                <HeaderCells
                  columns={[
                    { label: t("contacts.name") },
                    { label: t("contacts.number"), className: "hide-narrow" },
                    { label: t("contacts.email"), className: "hide-narrow" },
                    { label: t("contacts.lastInteraction"), className: "hide-narrow" },
                    { label: t("contacts.status"), className: "hide-narrow" },
                    { label: t("common.actions"), className: "col-actions" },
                  ]}
                />
              </TableRow>
            </TableHead>
            <TableBody>
              {contacts.map((c) => {
                const number = formatContactNumber(c.number);
                return (
                  <TableRow key={c.id} data-testid="contact-row" data-contact-id={c.id} data-selected={admin && picked.has(c.id) ? "true" : undefined}>
                    {admin && (
                      <TableCell className="col-check">
                        <input type="checkbox" className="contacts-check" checked={picked.has(c.id)} onChange={() => toggle(c.id)} aria-label={t("contacts.select", { name: c.name })} />
                      </TableCell>
                    )}
                    <TableCell className="col-photo">
                      <Avatar name={c.name} url={c.profilePicUrl} size="2rem" />
                    </TableCell>
                    <TableCell>
                      <span className="contacts-name" data-testid="contact-name">
                        {c.name}
                      </span>
                      <span className="sub-line show-narrow">{number}</span>
                      {c.email && <span className="sub-line show-narrow">{c.email}</span>}
                    </TableCell>
                    <TableCell className="hide-narrow col-number" data-testid="contact-number">
                      {number}
                    </TableCell>
                    <TableCell className="hide-narrow cell-wrap">{c.email}</TableCell>
                    <TableCell className="hide-narrow">{c.lastInteractionAt ? formatDate(c.lastInteractionAt) : "—"}</TableCell>
                    <TableCell className="hide-narrow">
                      <span className={`contacts-badge ${c.active ? "active" : ""}`}>{c.active ? t("contacts.active") : t("contacts.inactive")}</span>
                    </TableCell>
                    <TableCell className="col-actions">
                      <Flex gap="0.125rem" justifyContent="flex-end">
                        <button type="button" className="contacts-action" title={t("contacts.openTicket")} aria-label={`${t("contacts.openTicket")} ${c.name}`} onClick={() => setTicketFor(c)} data-testid="contact-open-ticket">
                          <ChatIcon />
                        </button>
                        <button type="button" className="contacts-action" title={t("common.edit")} aria-label={`${t("common.edit")} ${c.name}`} onClick={() => openDialog(c)} data-testid="contact-edit">
                          <EditIcon />
                        </button>
                        {admin && (
                          <button type="button" className="contacts-action danger" title={t("common.delete")} aria-label={`${t("common.delete")} ${c.name}`} onClick={() => setDeleting(c)} data-testid="contact-delete">
                            <DeleteIcon />
                          </button>
                        )}
                      </Flex>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          <LoadingMore active={q.isFetchingNextPage} />
        </PageState>
      </div>
      <ContactDialog open={dialogOpen} contact={editing} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog open={!!deleting} busy={del.isPending} onConfirm={confirmDelete} onClose={() => setDeleting(null)} />
      <ConfirmDialog
        open={deletingSelected}
        busy={bulkBusy}
        title={t("contacts.deleteSelected")}
        message={t("contacts.deleteSelectedConfirm", { count: selected.length })}
        onConfirm={confirmDeleteSelected}
        onClose={() => !bulkBusy && setDeletingSelected(false)}
      />
      <NewTicketDialog open={!!ticketFor} initialContact={ticketFor} onClose={() => setTicketFor(null)} />
    </section>
  );
}
