/**
 * /contacts (docs/product/contacts.md) on the kit's CRUD list page: search box (3+
 * characters, 500 ms debounce), select all / unselect all and delete selected (admins: `contacts-page:deleteContact`),
 * add button; a table of checkbox, photo, name, WhatsApp number (`+CC (AA) number`), email, last interaction, status
 * and actions (start a conversation, edit, delete after 'Deseja realmente excluir este registro?'); infinite scroll;
 * live through `company-{id}-contact`. Starting a conversation opens the New ticket dialog with the contact chosen; on
 * success it goes to `/tickets/{uuid}`. The import/export menu imports a spreadsheet (.xls, .xlsx, .csv) with the
 * contact list import's preview and report, and exports the searched contacts to .xlsx or .csv. "Delete selected" is
 * one request (`POST /api/contacts/delete`).
 */
import { can } from "@atende/shared/access/permissions";
import { Button, Menu, MenuButton, MenuItem } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { call } from "../../api/operations.ts";
import { useSession } from "../../api/session.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { formatDate } from "../../ui/format.ts";
import { ChatIcon, CrudListPage, fromPages, IconAction, useCrudPage, useListSearch } from "../../ui/kit/index.ts";
import { ATTENDANCE_TOAST_MS, useToast } from "../../ui/Toast.tsx";
import { Avatar } from "../tickets/ContactDrawer.tsx";
import { NewTicketDialog } from "../tickets/NewTicketDialog.tsx";
import { ImportDialog } from "../contactLists/ImportDialog.tsx";
import { contactsCache, useContactMutations, useContactPages, type Contact } from "./api.ts";
import { allContacts, contactsCsv, contactsXlsx, download } from "./export.ts";
import { ContactDialog } from "./ContactDialog.tsx";
import "./contacts.css";
import { formatContactNumber } from "./phone.ts";

const toastOpts = { durationMs: ATTENDANCE_TOAST_MS };

/** `HH:mm` of an ISO time, in the browser's zone (the "Última interação" column shows the date and this). */
const clock = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

export function ContactsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  // Select all, delete selected and delete: `contacts-page:deleteContact` (admins).
  const admin = can(useSession()?.user, "contacts-page:deleteContact");
  const search = useListSearch();
  const list = fromPages(useContactPages(search.term), "contacts");
  const { remove } = useContactMutations();
  const page = useCrudPage<Contact>(remove, t("contacts.deleted"), ATTENDANCE_TOAST_MS);
  const [deletingSelected, setDeletingSelected] = useState(false);
  const [bulkBusy, setBulkBusy] = useState(false);
  const [ticketFor, setTicketFor] = useState<Contact | null>(null);
  const [picked, setPicked] = useState<Set<number>>(() => new Set());
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const qc = useQueryClient();

  const contacts = list.items;
  // Only contacts still on screen count as selected (a live delete or a new search drops the others).
  const selected = useMemo(() => contacts.filter((c) => picked.has(c.id)), [contacts, picked]);
  const allSelected = contacts.length > 0 && selected.length === contacts.length;

  const toggle = (id: number) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setPicked(allSelected ? new Set() : new Set(contacts.map((c) => c.id)));

  /** Deletes the selected contacts in one request; on a failure they stay selected. */
  const confirmDeleteSelected = async () => {
    setBulkBusy(true);
    try {
      const out = await call("POST /api/contacts/delete", { body: { contactIds: selected.map((c) => c.id) } });
      for (const c of selected) contactsCache.remove(qc, c.id);
      setPicked(new Set());
      toast.success(t("contacts.deletedMany", { count: out.deleted }), toastOpts);
    } catch (e) {
      toast.error(errorMessage(e, t), toastOpts);
    } finally {
      setBulkBusy(false);
      setDeletingSelected(false);
    }
  };

  const exportAs = async (kind: "xlsx" | "csv") => {
    setExporting(true);
    try {
      const all = await allContacts(search.term);
      download(kind === "csv" ? contactsCsv(all) : await contactsXlsx(all), `contatos.${kind}`);
    } catch (e) {
      toast.error(errorMessage(e, t), toastOpts);
    } finally {
      setExporting(false);
    }
  };

  const headerCheck = (
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
  );

  return (
    <CrudListPage
      ns="contacts"
      entity="contact"
      page={page}
      search={search}
      toolsClassName="contacts-tools"
      extraTools={
        <>
          <Menu trigger={<MenuButton size="small" isLoading={exporting} data-testid="contacts-import-export">{t("contacts.importExport")}</MenuButton>}>
            <MenuItem onClick={() => setImporting(true)} data-testid="contacts-import">
              {t("contacts.import")}
            </MenuItem>
            <MenuItem onClick={() => void exportAs("xlsx")} data-testid="contacts-export-xlsx">
              {t("contacts.exportXlsx")}
            </MenuItem>
            <MenuItem onClick={() => void exportAs("csv")} data-testid="contacts-export-csv">
              {t("contacts.exportCsv")}
            </MenuItem>
          </Menu>
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
        </>
      }
      list={list}
      tableClassName="contacts-table"
      rowAttrs={(c) => ({ "data-selected": admin && picked.has(c.id) ? "true" : undefined })}
      canDelete={() => admin}
      actions={(c) => (
        <IconAction label={`${t("contacts.openTicket")} ${c.name}`} title={t("contacts.openTicket")} onClick={() => setTicketFor(c)} testId="contact-open-ticket">
          <ChatIcon />
        </IconAction>
      )}
      columns={[
        ...(admin
          ? [
              {
                label: headerCheck,
                className: "col-check",
                cell: (c: Contact) => (
                  <input type="checkbox" className="contacts-check" checked={picked.has(c.id)} onChange={() => toggle(c.id)} aria-label={t("contacts.select", { name: c.name })} />
                ),
              },
            ]
          : []),
        { label: <span className="sr-only">{t("contacts.photo")}</span>, className: "col-photo", cell: (c) => <Avatar name={c.name} url={c.profilePicUrl} size="2rem" /> },
        {
          label: t("contacts.name"),
          cell: (c) => (
            <>
              <span className="contacts-name" data-testid="contact-name">
                {c.name}
              </span>
              <span className="sub-line show-narrow">{formatContactNumber(c.number)}</span>
              {c.email && <span className="sub-line show-narrow">{c.email}</span>}
            </>
          ),
        },
        { label: t("contacts.number"), className: "hide-narrow", cellClassName: "col-number", testId: "contact-number", cell: (c) => formatContactNumber(c.number) },
        { label: t("contacts.email"), className: "hide-narrow", cellClassName: "cell-wrap", cell: (c) => c.email },
        {
          label: t("contacts.lastInteraction"),
          className: "hide-narrow",
          testId: "contact-last-interaction",
          cell: (c) => (c.lastInteractionAt ? <time dateTime={c.lastInteractionAt}>{`${formatDate(c.lastInteractionAt)} ${clock(c.lastInteractionAt)}`}</time> : "—"),
        },
        {
          label: t("contacts.status"),
          className: "hide-narrow",
          cell: (c) => <span className={`contacts-badge ${c.active ? "active" : ""}`}>{c.active ? t("contacts.active") : t("contacts.inactive")}</span>,
        },
      ]}
    >
      <ContactDialog open={page.open} contact={page.record} onClose={page.close} />
      <ConfirmDialog
        open={deletingSelected}
        busy={bulkBusy}
        title={t("contacts.deleteSelected")}
        message={t("contacts.deleteSelectedConfirm", { count: selected.length })}
        onConfirm={confirmDeleteSelected}
        onClose={() => !bulkBusy && setDeletingSelected(false)}
      />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        accept=".xls,.xlsx,.csv,text/csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        hint={t("contactListItems.importHintContacts")}
        upload={(file, preview) => {
          const form = new FormData();
          form.append("file", file, file.name);
          return call("POST /api/contacts/upload", { query: { preview: String(preview) }, form });
        }}
        onDone={() => contactsCache.reload(qc)}
      />
      <NewTicketDialog open={!!ticketFor} initialContact={ticketFor} onClose={() => setTicketFor(null)} />
    </CrudListPage>
  );
}
