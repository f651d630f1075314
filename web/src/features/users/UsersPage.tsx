/**
 * /users (attendance.md §2 Users page, admin): search box (3+ characters, 500 ms debounce), add button, table of
 * id, online status, name, email, profile and actions; infinite scroll (next page within 100 px of the bottom);
 * live updates through the realtime table; delete after 'Deseja realmente excluir este registro?'.
 */
import { Button, Flex, Heading, SearchField, Table, TableBody, TableCell, TableHead, TableRow, Text } from "@aws-amplify/ui-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { LoadingMore, PageState } from "../../ui/PageState.tsx";
import { HeaderCells } from "../../ui/HeaderCells.tsx";
import { useDebounced } from "../../ui/useDebounced.ts";
import { useToast } from "../../ui/Toast.tsx";
import { useDeleteUser, useUsersPages } from "./api.ts";
import type { User } from "./types.ts";
import { UserDialog } from "./UserDialog.tsx";

/** Distance from the bottom (px) at which the next page loads (attendance.md §9). */
const NEAR_BOTTOM_PX = 100;

export function UsersPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const [searchText, setSearchText] = useState("");
  const debounced = useDebounced(searchText.trim(), 500);
  const search = debounced.length >= 3 ? debounced : "";
  const q = useUsersPages(search);
  const del = useDeleteUser();
  const [editing, setEditing] = useState<User | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  const users = q.data?.pages.flatMap((p) => p.users) ?? [];
  const count = q.data?.pages[0]?.count;

  const maybeLoadMore = () => {
    const el = scroller.current;
    if (!el || !q.hasNextPage || q.isFetchingNextPage) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX) void q.fetchNextPage();
  };
  // A first page that does not fill the box cannot be scrolled: load more until it does.
  useEffect(maybeLoadMore, [q.data, q.hasNextPage, q.isFetchingNextPage]); // eslint-disable-line react-hooks/exhaustive-deps

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await del.mutateAsync(deleting.id);
      toast.success(t("users.deleted"));
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
    setDeleting(null);
  };

  return (
    <section className="page" aria-labelledby="users-title">
      <Flex className="page-header" alignItems="center" justifyContent="space-between" wrap="wrap" gap="0.75rem">
        <Flex alignItems="baseline" gap="0.5rem">
          <Heading level={2} id="users-title">
            {t("users.title")}
          </Heading>
          {typeof count === "number" && (
            <Text variation="secondary" fontSize="small">
              {t("users.count", { count })}
            </Text>
          )}
        </Flex>
        <Flex gap="0.5rem" alignItems="center" className="page-tools">
          <SearchField
            label={t("common.search")}
            labelHidden
            placeholder={t("users.searchPlaceholder")}
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            onClear={() => setSearchText("")}
            size="small"
          />
          <Button
            variation="primary"
            size="small"
            onClick={() => {
              setEditing(null);
              setDialogOpen(true);
            }}
          >
            {t("users.add")}
          </Button>
        </Flex>
      </Flex>
      <div className="table-scroll" ref={scroller} onScroll={maybeLoadMore} data-testid="users-scroll">
        <PageState loading={q.isPending} error={q.isError ? errorMessage(q.error, t) : undefined} empty={!q.isPending && !users.length} onRetry={() => void q.refetch()}>
          <Table size="small" highlightOnHover className="data-table" aria-labelledby="users-title">
            <TableHead>
              <TableRow>
                <HeaderCells
                  columns={[
                    { label: t("users.id"), className: "col-id" },
                    { label: t("users.status") },
                    { label: t("users.name") },
                    { label: t("users.email"), className: "hide-narrow" },
                    { label: t("users.profile") },
                    { label: t("common.actions"), className: "col-actions" },
                  ]}
                />
              </TableRow>
            </TableHead>
            <TableBody>
              {users.map((u) => (
                <TableRow key={u.id} data-testid="user-row">
                  <TableCell className="col-id">{u.id}</TableCell>
                  <TableCell>
                    <span className={`status-dot ${u.online ? "online" : ""}`} aria-hidden="true" />
                    <span className="status-label">{u.online ? t("users.online") : t("users.offline")}</span>
                  </TableCell>
                  <TableCell>
                    {u.name}
                    <span className="sub-line show-narrow">{u.email}</span>
                  </TableCell>
                  <TableCell className="cell-wrap hide-narrow">{u.email}</TableCell>
                  <TableCell>{t(`users.profiles.${u.profile}`, { defaultValue: u.profile })}</TableCell>
                  <TableCell className="col-actions">
                    <Flex gap="0.25rem" justifyContent="flex-end">
                      <Button
                        size="small"
                        variation="link"
                        aria-label={`${t("common.edit")} ${u.name}`}
                        onClick={() => {
                          setEditing(u);
                          setDialogOpen(true);
                        }}
                      >
                        {t("common.edit")}
                      </Button>
                      <Button size="small" variation="link" colorTheme="error" aria-label={`${t("common.delete")} ${u.name}`} onClick={() => setDeleting(u)}>
                        {t("common.delete")}
                      </Button>
                    </Flex>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <LoadingMore active={q.isFetchingNextPage} />
        </PageState>
      </div>
      <UserDialog open={dialogOpen} user={editing} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog open={!!deleting} busy={del.isPending} onConfirm={confirmDelete} onClose={() => setDeleting(null)} />
    </section>
  );
}
