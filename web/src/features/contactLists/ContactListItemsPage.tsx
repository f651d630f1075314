/**
 * /contact-lists/{contactListId}/contacts: the list's name and count, back to the lists, search (name, number or
 * e-mail), import a spreadsheet (.xls, .xlsx) with its preview, then a background job whose progress and counts show
 * in the dialog (or, once it is closed, above the table) and whose end reloads the items; add; a table of name, number,
 * e-mail and WhatsApp (valid, invalid, or being checked); edit; delete only for `contacts-page:deleteContact`. Live
 * through `company-{id}-ContactListItem` (and the list's count through `company-{id}-ContactList`).
 */
import { can } from "@atende/shared/access/permissions";
import { Button, Text } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { useSession } from "../../api/session.ts";
import { CrudListPage, fromPages, useCrudPage, useListSearch } from "../../ui/kit/index.ts";
import { useJob, useSeedJob } from "../jobs/api.ts";
import { JobProgress } from "../jobs/JobProgress.tsx";
import { type ContactListItem, contactListItemsCache, importContactList, useContactList, useContactListItemMutations, useContactListItemPages } from "./api.ts";
import { ContactListItemDialog } from "./ContactListItemDialog.tsx";
import { ImportDialog } from "./ImportDialog.tsx";

export function ContactListItemsPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const listId = Number(useParams().contactListId);
  const list = useContactList(listId).data;
  const mayDelete = can(useSession()?.user, "contacts-page:deleteContact");
  const { remove } = useContactListItemMutations(listId);
  const search = useListSearch(1);
  const crud = { search, list: fromPages(useContactListItemPages(listId, search.term), "contacts"), page: useCrudPage<ContactListItem>(remove, t("contactListItems.deleted")) };
  const [importing, setImporting] = useState(false);
  const [importJobId, setImportJobId] = useState<string | null>(null);
  const importJob = useJob(importJobId).data ?? null;
  const seedJob = useSeedJob();
  const reloadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (importJob?.status !== "done" || reloadedFor.current === importJob.id) return;
    reloadedFor.current = importJob.id;
    contactListItemsCache(listId).reload(qc);
  }, [importJob, listId, qc]);
  const whatsapp = (i: ContactListItem) =>
    !i.whatsappCheckedAt ? (
      <span>{t("contactListItems.unchecked")}</span>
    ) : i.isWhatsappValid ? (
      <span className="contact-list-valid">{t("contactListItems.valid")}</span>
    ) : (
      <span className="contact-list-invalid">{t("contactListItems.invalid")}</span>
    );
  return (
    <CrudListPage
      ns="contactListItems"
      entity="contact-list-item"
      {...crud}
      extraTools={
        <>
          {list && (
            <Text as="span" className="contact-list-name" data-testid="contact-list-name">
              {list.name} · {t("contactListItems.count", { count: list.contactsCount })}
            </Text>
          )}
          <Button size="small" onClick={() => navigate("/contact-lists")} data-testid="contact-list-back">
            {t("contactListItems.back")}
          </Button>
          <Button size="small" onClick={() => setImporting(true)} data-testid="contact-list-import">
            {t("contactListItems.import")}
          </Button>
        </>
      }
      canDelete={() => mayDelete}
      columns={[
        { label: t("contactListItems.name"), cell: (i) => i.name },
        { label: t("contactListItems.number"), testId: "contact-list-item-number", cell: (i) => i.number },
        { label: t("contactListItems.email"), className: "hide-narrow", cellClassName: "cell-wrap", cell: (i) => i.email },
        { label: t("contactListItems.whatsapp"), testId: "contact-list-item-whatsapp", cell: whatsapp },
      ]}
    >
      <ContactListItemDialog open={crud.page.open} record={crud.page.record} onClose={crud.page.close} contactListId={listId} />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        accept=".xls,.xlsx,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        hint={t("contactListItems.importHint")}
        upload={async (file, preview) => {
          const out = await importContactList(listId, file, preview);
          if ("jobId" in out) {
            seedJob(out.job);
            setImportJobId(out.jobId);
          }
          return out;
        }}
        job={importJob}
      />
      {!importing && <JobProgress jobId={importJobId} onDismiss={() => setImportJobId(null)} />}
    </CrudListPage>
  );
}
