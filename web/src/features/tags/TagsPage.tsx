/**
 * /tags (docs/product/tags.md) on the kit's CRUD list page: search (500 ms debounce, back to page 1),
 * infinite scroll, a table of name (in its colour), kanban flag, ticket count and actions; add/edit dialog; delete after
 * 'Deseja realmente excluir este registro?'; live through `company-{id}-tag`.
 */
import { useTranslation } from "react-i18next";
import { CrudListPage, useCrudList } from "../../ui/kit/index.ts";
import { useTagMutations, useTagPages } from "./api.ts";
import { TagChip } from "./TagChip.tsx";
import { TagDialog } from "./TagDialog.tsx";
import type { Tag } from "./types.ts";

export function TagsPage() {
  const { t } = useTranslation();
  const crud = useCrudList<Tag, "tags">("tags", useTagPages, "tags", useTagMutations().remove, 1);
  return (
    <CrudListPage
      ns="tags"
      entity="tag"
      {...crud}
      columns={[
        { label: t("tags.name"), cell: (tag) => <TagChip tag={tag} /> },
        { label: t("tags.kanban"), className: "hide-narrow", cell: (tag) => (tag.kanban ? t("tags.yes") : t("tags.no")) },
        { label: t("tags.ticketsCount"), className: "col-count", testId: "tag-tickets-count", cell: (tag) => tag.ticketsCount ?? 0 },
      ]}
    >
      <TagDialog open={crud.page.open} record={crud.page.record} onClose={crud.page.close} />
    </CrudListPage>
  );
}
