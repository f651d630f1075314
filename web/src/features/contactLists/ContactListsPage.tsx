/**
 * /contact-lists on the kit's CRUD list page: search, a table of name and contacts count; row actions download the
 * example spreadsheet, open the list's contacts, edit and delete (after 'Deseja realmente excluir este registro?');
 * live through `company-{id}-ContactList`.
 */
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { CrudListPage, IconAction, useCrudList } from "../../ui/kit/index.ts";
import { type ContactList, useContactListMutations, useContactListPages } from "./api.ts";
import exampleUrl from "./contact-list-example.xlsx?url";
import { ContactListDialog } from "./ContactListDialog.tsx";

export function ContactListsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { remove } = useContactListMutations();
  const crud = useCrudList<ContactList, "records">("contactLists", useContactListPages, "records", remove, 1);
  return (
    <CrudListPage
      ns="contactLists"
      entity="contact-list"
      {...crud}
      columns={[
        { label: t("contactLists.name"), cell: (l) => l.name },
        { label: t("contactLists.contactsCount"), className: "col-count", testId: "contact-list-count", cell: (l) => l.contactsCount.toLocaleString(i18n.language) },
      ]}
      actions={(l) => (
        <>
          <a className="row-action" href={exampleUrl} download="planilha-exemplo.xlsx" title={t("contactLists.downloadExample")} aria-label={t("contactLists.downloadExample")} data-testid="contact-list-example">
            <span aria-hidden="true">⤓</span>
            <span className="sr-only">{t("contactLists.downloadExample")}</span>
          </a>
          <IconAction label={`${t("contactLists.openItems")} ${l.name}`} title={t("contactLists.openItems")} onClick={() => navigate(`/contact-lists/${l.id}/contacts`)} testId="contact-list-open">
            <span aria-hidden="true">☰</span>
          </IconAction>
        </>
      )}
    >
      <ContactListDialog open={crud.page.open} record={crud.page.record} onClose={crud.page.close} />
    </CrudListPage>
  );
}
