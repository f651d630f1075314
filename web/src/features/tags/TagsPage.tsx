/**
 * /tags (administration.md §2 Tags, §4 Lists) on the kit's list page: search (500 ms debounce, back to page 1),
 * infinite scroll, a table of name (in its colour), kanban flag, ticket count and actions; add/edit dialog; delete after
 * 'Deseja realmente excluir este registro?'; live through `company-{id}-tag`.
 */
import { Button, TableCell, TableRow } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { fromPages, ListPage, RowActions, useCrudPage, useListSearch } from "../../ui/kit/index.ts";
import { useTagMutations, useTagPages } from "./api.ts";
import { TagChip } from "./TagChip.tsx";
import { TagDialog } from "./TagDialog.tsx";
import type { Tag } from "./types.ts";

export function TagsPage() {
  const { t } = useTranslation();
  const search = useListSearch(1);
  const list = fromPages(useTagPages(search.term), "tags");
  const { remove } = useTagMutations();
  const page = useCrudPage<Tag>(remove, t("tags.deleted"));
  return (
    <ListPage
      id="tags"
      title={t("tags.title")}
      countText={list.count === undefined ? undefined : t("tags.count", { count: list.count })}
      search={search}
      searchPlaceholder={t("tags.searchPlaceholder")}
      tools={
        <Button variation="primary" size="small" onClick={() => page.add()} data-testid="tags-add">
          {t("tags.add")}
        </Button>
      }
      list={list}
      columns={[
        { label: t("tags.name") },
        { label: t("tags.kanban"), className: "hide-narrow" },
        { label: t("tags.ticketsCount"), className: "col-count" },
        { label: t("common.actions"), className: "col-actions" },
      ]}
      row={(tag) => (
        <TableRow key={tag.id} data-testid="tag-row" data-tag-id={tag.id}>
          <TableCell>
            <TagChip tag={tag} />
          </TableCell>
          <TableCell className="hide-narrow">{tag.kanban ? t("tags.yes") : t("tags.no")}</TableCell>
          <TableCell className="col-count" data-testid="tag-tickets-count">
            {tag.ticketsCount ?? 0}
          </TableCell>
          <TableCell className="col-actions">
            <RowActions name={tag.name} onEdit={() => page.edit(tag)} onDelete={() => page.ask(tag)} testIdPrefix="tag" />
          </TableCell>
        </TableRow>
      )}
    >
      <TagDialog open={page.open} tag={page.record} onClose={page.close} />
      {page.confirmDialog}
    </ListPage>
  );
}
