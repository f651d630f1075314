/**
 * A feature's CRUD list page on the kit's list page: the page declares its namespace, its columns and its dialog; the
 * kit adds the texts (`{ns}.title`, `{ns}.count` when the list has a count and the key exists, `{ns}.searchPlaceholder`
 * with a search, `{ns}.add`; when the namespace has them, `{ns}.loadFailed` for a list that cannot be read,
 * `{ns}.saveFailed` and `{ns}.deleteFailed` for the failure toasts), the add button, the actions column (edit, delete after 'Deseja realmente excluir este
 * registro?', extra row buttons) and the test ids (`{entity}-row`, `data-{entity}-id`, `{entity}-edit|delete`).
 */
import { Button, TableCell, TableRow } from "@aws-amplify/ui-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { InfiniteData, UseInfiniteQueryResult, UseMutationResult } from "@tanstack/react-query";
import { fromPages, ListPage, useListSearch, type ListPageProps } from "./ListPage.tsx";
import { RowActions, useCrudPage, type CrudPage } from "./RowActions.tsx";

/** One column: header label, the class of its header and body cells, and what a record shows in it. */
export interface Column<T> {
  label: ReactNode;
  className?: string;
  /** Extra class of the body cells only. */
  cellClassName?: string;
  testId?: string;
  cell: (item: T) => ReactNode;
}

export interface CrudListPageProps<T extends { id: number; name: string }>
  extends Omit<ListPageProps<T>, "id" | "title" | "countText" | "searchPlaceholder" | "columns" | "row"> {
  /** The feature's i18n namespace, also the page id. */
  ns: string;
  /** Names the rows and their buttons in test ids. */
  entity: string;
  /** The page's dialogs state (`useCrudPage`). */
  page: CrudPage<T>;
  columns: Column<T>[];
  /** Buttons before the add button. */
  extraTools?: ReactNode;
  /** Test id of the add button (`{ns}-add` by default). */
  addTestId?: string;
  /** Extra attributes of a row. */
  rowAttrs?: (item: T) => Record<string, string | undefined>;
  /** Extra buttons of a row, before edit and delete. */
  actions?: (item: T) => ReactNode;
  /** Whether the delete button shows (always by default). */
  canDelete?: (item: T) => boolean;
}

export function CrudListPage<T extends { id: number; name: string }>({ ns, entity, page, columns, extraTools, addTestId, rowAttrs, actions, canDelete, ...rest }: CrudListPageProps<T>) {
  const { t, i18n } = useTranslation();
  const count = rest.list.count;
  return (
    <ListPage
      {...rest}
      id={ns}
      title={t(`${ns}.title`)}
      errorText={i18n.exists(`${ns}.loadFailed`) ? t(`${ns}.loadFailed`) : undefined}
      countText={count === undefined || !i18n.exists(`${ns}.count`) ? undefined : t(`${ns}.count`, { count })}
      searchPlaceholder={rest.search ? t(`${ns}.searchPlaceholder`) : undefined}
      tools={
        <>
          {extraTools}
          <Button variation="primary" size="small" onClick={() => page.add()} data-testid={addTestId ?? `${ns}-add`}>
            {t(`${ns}.add`)}
          </Button>
        </>
      }
      columns={[...columns.map((c) => ({ label: c.label, className: c.className })), { label: t("common.actions"), className: "col-actions" }]}
      row={(item) => (
        <TableRow key={item.id} data-testid={`${entity}-row`} {...{ [`data-${entity}-id`]: item.id }} {...rowAttrs?.(item)}>
          {columns.map((c, i) => (
            <TableCell key={i} className={[c.className, c.cellClassName].filter(Boolean).join(" ") || undefined} data-testid={c.testId}>
              {c.cell(item)}
            </TableCell>
          ))}
          <TableCell className="col-actions">
            <RowActions name={item.name} onEdit={() => page.edit(item)} onDelete={canDelete && !canDelete(item) ? undefined : () => page.ask(item)} testIdPrefix={entity}>
              {actions?.(item)}
            </RowActions>
          </TableCell>
        </TableRow>
      )}
    >
      {rest.children}
      {page.confirmDialog}
    </ListPage>
  );
}

/**
 * The state of a searchable, paged CRUD list page: the search box (`minChars`, 3 by default), the list read from
 * `usePages(term)`'s `field`, and the dialogs state whose delete toasts `{ns}.deleted`.
 */
export function useCrudList<T extends { id: number }, F extends string>(
  ns: string,
  usePages: (term: string) => UseInfiniteQueryResult<InfiniteData<{ [K in F]: T[] } & { count?: number }>>,
  field: F,
  remove: UseMutationResult<unknown, Error, number>,
  minChars?: number,
) {
  const { t, i18n } = useTranslation();
  const search = useListSearch(minChars);
  const list = fromPages(usePages(search.term), field);
  const page = useCrudPage<T>(remove, t(`${ns}.deleted`), undefined, i18n.exists(`${ns}.deleteFailed`) ? t(`${ns}.deleteFailed`) : undefined);
  return { search, list, page };
}
