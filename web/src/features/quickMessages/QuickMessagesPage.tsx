/**
 * /quick-messages on the kit's list page: search (shortcode or text,
 * 500 ms debounce), infinite scroll, a table of shortcode, text, media, status (Ativo/Inativo) and geral; add/edit
 * dialog; delete after 'Deseja realmente excluir este registro?'. Edit and delete show only where the rules allow
 * them (admin and supervisor every one; a user their own that are not geral); live through
 * `company-{id}-quickmessage`.
 */
import { canEditQuickMessage } from "@atende/shared/quickMessages/access";
import { Badge, Button, TableCell, TableRow } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../api/session.ts";
import { fromPages, ListPage, RowActions, useCrudPage, useListSearch } from "../../ui/kit/index.ts";
import { type QuickMessage, useQuickMessageMutations, useQuickMessagePages } from "./api.ts";
import { QuickMessageDialog } from "./QuickMessageDialog.tsx";
import { cut } from "./shortcuts.ts";

export function QuickMessagesPage() {
  const { t } = useTranslation();
  const me = useSession()!.user;
  const search = useListSearch(1);
  const list = fromPages(useQuickMessagePages(search.term), "records");
  const page = useCrudPage<QuickMessage>(useQuickMessageMutations().remove, t("quickMessages.deleted"));
  const mayEdit = (m: QuickMessage) => canEditQuickMessage({ ...me, userId: me.id }, m);
  return (
    <ListPage
      id="quickMessages"
      title={t("quickMessages.title")}
      countText={list.count === undefined ? undefined : t("quickMessages.count", { count: list.count })}
      search={search}
      searchPlaceholder={t("quickMessages.searchPlaceholder")}
      tools={
        <Button variation="primary" size="small" onClick={() => page.add()} data-testid="quickMessages-add">
          {t("quickMessages.add")}
        </Button>
      }
      list={list}
      columns={[
        { label: t("quickMessages.shortcode") },
        { label: t("quickMessages.message"), className: "hide-narrow" },
        { label: t("quickMessages.media"), className: "hide-narrow" },
        { label: t("quickMessages.status") },
        { label: t("common.actions"), className: "col-actions" },
      ]}
      row={(m) => (
        <TableRow key={m.id} data-testid="quick-message-row" data-quick-message-id={m.id}>
          <TableCell>
            <strong>/{m.shortcode}</strong> {m.geral && <Badge size="small">{t("quickMessages.geral")}</Badge>}
          </TableCell>
          <TableCell className="hide-narrow cell-clip">{cut(m.message)}</TableCell>
          <TableCell className="hide-narrow cell-clip">{m.mediaName ?? ""}</TableCell>
          <TableCell>
            <Badge size="small" variation={m.status ? "success" : undefined}>
              {m.status ? t("quickMessages.active") : t("quickMessages.inactive")}
            </Badge>
          </TableCell>
          <TableCell className="col-actions">
            <RowActions name={m.shortcode} onEdit={mayEdit(m) ? () => page.edit(m) : undefined} onDelete={mayEdit(m) ? () => page.ask(m) : undefined} testIdPrefix="quick-message" />
          </TableCell>
        </TableRow>
      )}
    >
      <QuickMessageDialog open={page.open} record={page.record} onClose={page.close} />
      {page.confirmDialog}
    </ListPage>
  );
}
