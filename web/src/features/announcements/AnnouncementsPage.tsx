/**
 * /announcements (super users) on the kit's list page: search (title or text, 500 ms debounce), infinite scroll, a
 * table of title, priority (its colour), status (Ativo/Inativo) and image; add/edit dialog; delete after 'Deseja
 * realmente excluir este registro?'. Live through `company-{id}-announcement`.
 */
import { Badge, Button, TableCell, TableRow } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { fromPages, ListPage, RowActions, useCrudPage, useListSearch } from "../../ui/kit/index.ts";
import { type Announcement, PRIORITY_COLORS, useAnnouncementMutations, useAnnouncementPages } from "./api.ts";
import { AnnouncementDialog } from "./AnnouncementDialog.tsx";

export function AnnouncementsPage() {
  const { t } = useTranslation();
  const search = useListSearch(1);
  const list = fromPages(useAnnouncementPages(search.term), "records");
  const page = useCrudPage<Announcement>(useAnnouncementMutations().remove, t("announcements.deleted"));
  return (
    <ListPage
      id="announcements"
      title={t("announcements.title")}
      countText={list.count === undefined ? undefined : t("announcements.count", { count: list.count })}
      search={search}
      searchPlaceholder={t("announcements.searchPlaceholder")}
      tools={
        <Button variation="primary" size="small" onClick={() => page.add()} data-testid="announcements-add">
          {t("announcements.add")}
        </Button>
      }
      list={list}
      columns={[
        { label: t("announcements.field_title") },
        { label: t("announcements.priority") },
        { label: t("announcements.status"), className: "hide-narrow" },
        { label: t("announcements.media"), className: "hide-narrow" },
        { label: t("common.actions"), className: "col-actions" },
      ]}
      row={(a) => (
        <TableRow key={a.id} data-testid="announcement-row" data-announcement-id={a.id}>
          <TableCell className="cell-clip announcement-title-cell">
            <strong>{a.title}</strong>
          </TableCell>
          <TableCell>
            <span className="announcement-priority" style={{ background: PRIORITY_COLORS[a.priority] }}>
              {t(`announcements.priority${a.priority}`)}
            </span>
          </TableCell>
          <TableCell className="hide-narrow">
            <Badge size="small" variation={a.status ? "success" : undefined}>
              {a.status ? t("announcements.active") : t("announcements.inactive")}
            </Badge>
          </TableCell>
          <TableCell className="hide-narrow cell-clip">{a.mediaName ?? ""}</TableCell>
          <TableCell className="col-actions">
            <RowActions name={a.title} onEdit={() => page.edit(a)} onDelete={() => page.ask(a)} testIdPrefix="announcement" />
          </TableCell>
        </TableRow>
      )}
    >
      <AnnouncementDialog open={page.open} record={page.record} onClose={page.close} />
      {page.confirmDialog}
    </ListPage>
  );
}
