/**
 * The kit's list page: a header (title, optional count, search box,
 * tools), then a scrolling table with the loading, error (retry) and empty states; the next page loads when the table
 * is scrolled within {@link NEAR_BOTTOM_PX} of the bottom (and while a short first page leaves no scrollbar).
 * `useListSearch()` debounces the box by {@link SEARCH_DEBOUNCE_MS}; a new term is a new query key, so the list
 * starts again at page 1. Live merges happen in the cache (`crud.ts`), so the page needs nothing for them.
 */
import { Flex, Heading, SearchField, Table, TableBody, TableHead, TableRow, Text } from "@aws-amplify/ui-react";
import type { InfiniteData, UseInfiniteQueryResult, UseQueryResult } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { HeaderCells, type HeaderColumn } from "../HeaderCells.tsx";
import { LoadingMore, PageState } from "../PageState.tsx";
import { useDebounced } from "../useDebounced.ts";

/** Distance from the bottom at which the next page loads (a product constant), in px. */
export const NEAR_BOTTOM_PX = 100;
/** Search debounce (a product constant), in ms. */
export const SEARCH_DEBOUNCE_MS = 500;

export interface ListSearch {
  /** What the box shows. */
  text: string;
  setText: (v: string) => void;
  /** The debounced term sent to the API ("" while shorter than the minimum). */
  term: string;
  /** True while something is typed but fewer than the minimum characters. */
  short: boolean;
}

/** A debounced search box state; `minChars` characters are needed before a term is sent (3 by default). */
export function useListSearch(minChars = 3): ListSearch {
  const [text, setText] = useState("");
  const typed = text.trim();
  const debounced = useDebounced(typed, SEARCH_DEBOUNCE_MS);
  return { text, setText, term: debounced.length >= minChars ? debounced : "", short: typed.length > 0 && typed.length < minChars };
}

/** What the list page needs of a query: its records and states (see `fromPages` / `fromArray`). */
export interface ListQuery<T> {
  items: T[];
  /** `count` of the first page, when the API gives one. */
  count?: number;
  pending: boolean;
  error: unknown;
  retry: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/** A paged (infinite) query whose pages hold the records under `field`. */
export function fromPages<T, F extends string>(q: UseInfiniteQueryResult<InfiniteData<{ [K in F]: T[] } & { count?: number }>>, field: F): ListQuery<T> {
  return {
    items: q.data?.pages.flatMap((p) => p[field] ?? []) ?? [],
    count: q.data?.pages[0]?.count,
    pending: q.isPending && q.fetchStatus !== "idle",
    error: q.isError ? q.error : undefined,
    retry: () => void q.refetch(),
    hasMore: !!q.hasNextPage,
    loadingMore: q.isFetchingNextPage,
    loadMore: () => void q.fetchNextPage(),
  };
}

/** A query answered whole (one array). */
export function fromArray<T>(q: UseQueryResult<T[]>): ListQuery<T> {
  return { items: q.data ?? [], pending: q.isPending, error: q.isError ? q.error : undefined, retry: () => void q.refetch(), hasMore: false, loadingMore: false, loadMore: () => undefined };
}

export interface ListPageProps<T> {
  /** Names the page: heading id `{id}-title`, scroller test id `{id}-scroll`. */
  id: string;
  title: string;
  /** Shown beside the title (e.g. '3 usuário(s)'). */
  countText?: string;
  search?: ListSearch;
  searchPlaceholder?: string;
  /** Buttons at the right of the header (add, select all, ...). */
  tools?: ReactNode;
  /** Class of the tools row (page-specific layout). */
  toolsClassName?: string;
  list: ListQuery<T>;
  columns: HeaderColumn[];
  /** One `<TableRow>` per record. */
  row: (item: T) => ReactNode;
  tableClassName?: string;
  /** The error state's text when the list cannot be read (the server's translated error by default). */
  errorText?: string;
  /** Dialogs of the page. */
  children?: ReactNode;
}

export function ListPage<T>(p: ListPageProps<T>) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const { list } = p;
  const maybeLoadMore = () => {
    const el = scroller.current;
    if (!el || !list.hasMore || list.loadingMore) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX) list.loadMore();
  };
  // A first page that does not fill the box cannot be scrolled: load more until it does.
  useEffect(maybeLoadMore, [list.items.length, list.hasMore, list.loadingMore]); // eslint-disable-line react-hooks/exhaustive-deps
  const titleId = `${p.id}-title`;
  return (
    <section className="page" aria-labelledby={titleId}>
      <Flex className="page-header" alignItems="center" justifyContent="space-between" wrap="wrap" gap="0.75rem">
        <Flex alignItems="baseline" gap="0.5rem">
          <Heading level={2} id={titleId}>
            {p.title}
          </Heading>
          {p.countText && (
            <Text variation="secondary" fontSize="small" data-testid={`${p.id}-count`}>
              {p.countText}
            </Text>
          )}
        </Flex>
        <Flex gap="0.5rem" alignItems="center" className={`page-tools ${p.toolsClassName ?? ""}`}>
          {p.search && (
            <SearchField
              label={t("common.search")}
              labelHidden
              placeholder={p.searchPlaceholder ?? t("common.search")}
              value={p.search.text}
              onChange={(e) => p.search!.setText(e.target.value)}
              onClear={() => p.search!.setText("")}
              size="small"
              hasSearchButton={false}
              hasSearchIcon
              clearButtonLabel={t("kit.clearSearch")}
            />
          )}
          {p.tools}
        </Flex>
      </Flex>
      {p.search?.short && (
        <Text className="list-hint" fontSize="small" variation="secondary" role="status">
          {t("kit.searchHint")}
        </Text>
      )}
      <div className="table-scroll" ref={scroller} onScroll={maybeLoadMore} data-testid={`${p.id}-scroll`}>
        <PageState loading={list.pending} error={list.error ? (p.errorText ?? errorMessage(list.error, t)) : undefined} empty={!list.pending && !list.items.length} onRetry={list.retry}>
          <Table size="small" highlightOnHover className={`data-table ${p.tableClassName ?? ""}`} aria-labelledby={titleId}>
            <TableHead>
              <TableRow>
                <HeaderCells columns={p.columns} />
              </TableRow>
            </TableHead>
            <TableBody>{list.items.map(p.row)}</TableBody>
          </Table>
          <LoadingMore active={list.loadingMore} />
        </PageState>
      </div>
      {p.children}
    </section>
  );
}
